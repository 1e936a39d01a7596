// The one list both entry points are built from: everything `@cardrail/sdk/webhooks` exports besides the six functions
// each entry defines on its runtime's HMAC (index.ts on Web Crypto, index.node.ts on node:crypto).
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type GenerateSignatureHeaderParams,
  type ParsedSignatureHeader,
  type RawPayload,
  type UnixTime,
  type VerifySignatureParams,
  type WebhookSecret,
} from './signature-checks.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../errors.js';
export * from '../events/index.js';

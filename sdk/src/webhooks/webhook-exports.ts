// The one list both entry points are built from: everything `@cardrail/sdk/webhooks` exports besides the functions
// each entry defines on its runtime's HMAC (index.ts on Web Crypto, index.node.ts on node:crypto).
export {
  DEFAULT_TOLERANCE_SECONDS,
  type RawPayload,
  type SignatureScheme,
  type UnixTime,
  type WebhookSecret,
} from './signature-checks.js';
export { parseSignatureHeader, SIGNATURE_HEADER, type ParsedSignatureHeader } from './schemes.js';
export {
  parseStandardWebhooksHeaders,
  STANDARD_WEBHOOKS_HEADERS,
  type ParsedStandardWebhooksHeaders,
} from './schemes.js';
export type { WebhookHeaders } from './delivery.js';
export type {
  GenerateSignatureHeaderParams,
  GenerateWebhookHeadersParams,
  VerificationTimeOptions,
  VerifySignatureParams,
} from './delivery.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../errors.js';
export * from '../events/index.js';

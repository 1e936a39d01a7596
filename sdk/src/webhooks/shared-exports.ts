// What both builds of `@cardrail/sdk/webhooks` export unchanged: everything but the functions that compute an HMAC.
export { DEFAULT_TOLERANCE_SECONDS, type VerifySignatureParams } from './delivery.js';
export type { GenerateSignatureHeaderParams } from './signing-input.js';
export { parseSignatureHeader, SIGNATURE_HEADER, type ParsedSignatureHeader } from './signature-header.js';
export type { RawPayload } from './raw-payload.js';
export type { WebhookSecret } from './secret.js';
export type { UnixTime } from './timestamp.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../errors.js';
export * from '../events/index.js';

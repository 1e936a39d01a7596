export { generateSignatureHeader, type GenerateSignatureHeaderParams } from './sign.js';
export { verifySignature, DEFAULT_TOLERANCE_SECONDS, type VerifySignatureParams } from './verify.js';
export { constructEvent } from './construct-event.js';
export { parseSignatureHeader, SIGNATURE_HEADER, type ParsedSignatureHeader } from './signature-header.js';
export type { RawPayload } from './raw-payload.js';
export type { WebhookSecret } from './hmac.js';
export type { UnixTime } from './timestamp.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../errors.js';
export * from '../events/index.js';

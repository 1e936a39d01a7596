// The headers of both signature schemes, and the Standard Webhooks key. Cardrail-Signature signs `<t>.<raw body>`
// with the whole secret string as the key and writes hex; Standard Webhooks (https://www.standardwebhooks.com, what
// the `standardwebhooks` and `svix` libraries verify) signs `<id>.<t>.<raw body>` with the secret's bytes (the base64
// after `whsec_`) and writes base64. Both carry one signature per active secret during a rotation.
import { base64ToBytes } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import { WebhookVerificationError } from '../errors.js';
import type { ParsedSignatureHeader, ParsedStandardWebhooksHeaders } from './types.js';

/** Name of the HTTP header that carries the Cardrail-Signature scheme. */
export const SIGNATURE_HEADER = 'Cardrail-Signature';

const DIGITS = /^\d+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Parses the header's grammar: comma-separated `key=value` elements, exactly one `t=<unix seconds, digits only>` and
 * one or more `v1=<64 hex digits>` (HMAC-SHA256 of `<t>.` + body), in any order. Whitespace around elements and
 * around `=` is ignored, empty elements are skipped, hex is case-insensitive, and unknown schemes (`v0=`, a future
 * `v2=`) and empty `v1=` values are skipped so that senders can add schemes before receivers know them. Malformed:
 * an element without a key, a missing, repeated, non-numeric or unsafe-integer `t`, a `v1` that is not 64 hex digits.
 * No `v1` at all is `missing_signature`; no header or a blank one is `missing_header`.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header == null || header.trim() === '') {
    throw new WebhookVerificationError('missing_header', `No ${SIGNATURE_HEADER} header was found on the request.`);
  }
  const malformed = (reason: string) =>
    new WebhookVerificationError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${reason}.`);
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const element of header.split(',')) {
    const part = element.trim();
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) throw malformed(`element "${part}" is not a key=value pair`);
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      if (timestamp !== undefined) throw malformed('more than one t= element');
      if (!DIGITS.test(value)) throw malformed(`t= must be unix seconds, got "${value}"`);
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) throw malformed(`t= is out of range: "${value}"`);
    } else if (scheme === 'v1' && value !== '') {
      const digest = value.toLowerCase();
      if (!SHA256_HEX.test(digest)) throw malformed('v1= must be 64 hexadecimal characters');
      signatures.push(digest);
    }
  }
  if (timestamp === undefined) throw malformed('no t= element');
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER} header has no v1 signature.`);
  }
  return { timestamp, signatures };
}

/** The Standard Webhooks headers, lower-case as HTTP/2 and Node write header names. */
export const STANDARD_WEBHOOKS_HEADERS = {
  /** The message id: the delivery's, the same on every attempt of it. */
  id: 'webhook-id',
  /** Unix seconds of the attempt. */
  timestamp: 'webhook-timestamp',
  /** `v1,<base64>` entries, one per active secret, separated by spaces. */
  signature: 'webhook-signature',
} as const;

const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
/** What a message id may hold: printable ASCII without spaces, so that it survives every HTTP stack unchanged. */
export const MESSAGE_ID = /^[\x21-\x7e]{1,255}$/;

/**
 * Parses the three headers. The id is any printable ASCII without spaces; the timestamp digits only; the signature a
 * list of `<version>,<value>` entries separated by spaces, where `v1` values must be base64 of 32 bytes and other
 * versions (`v1a`, the asymmetric one) are skipped. Absent or empty headers are `undefined`: some of the three
 * but not all is `missing_header`, no `v1` entry `missing_signature`, anything else out of shape `malformed_header`.
 */
export function parseStandardWebhooksHeaders(
  id: string | undefined,
  timestamp: string | undefined,
  signature: string | undefined,
): ParsedStandardWebhooksHeaders {
  if (id === undefined || timestamp === undefined || signature === undefined) {
    throw new WebhookVerificationError(
      'missing_header',
      'The request has some Standard Webhooks headers but not all three of webhook-id, webhook-timestamp and webhook-signature.',
    );
  }
  const malformed = (reason: string) =>
    new WebhookVerificationError('malformed_header', `Malformed Standard Webhooks headers: ${reason}.`);
  const messageId = id.trim();
  if (!MESSAGE_ID.test(messageId)) throw malformed('webhook-id must be printable ASCII without spaces');
  const seconds = timestamp.trim();
  if (!DIGITS.test(seconds) || !Number.isSafeInteger(Number(seconds))) {
    throw malformed(`webhook-timestamp must be unix seconds, got "${seconds}"`);
  }
  const signatures: string[] = [];
  for (const entry of signature.split(' ')) {
    if (entry === '') continue;
    const comma = entry.indexOf(',');
    if (comma <= 0) throw malformed(`"${entry}" is not <version>,<signature>`);
    if (entry.slice(0, comma) !== 'v1') continue;
    const value = entry.slice(comma + 1);
    if (!SHA256_BASE64.test(value)) throw malformed('a v1 signature must be the base64 of 32 bytes');
    signatures.push(value);
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', 'The webhook-signature header has no v1 signature.');
  }
  return { id: messageId, timestamp: Number(seconds), signatures };
}

// Decoded once per secret: a receiver verifies every delivery with the same one or two secrets.
const keys = /* @__PURE__ */ new BoundedCache<Uint8Array>(16);

/**
 * The HMAC key of a secret under Standard Webhooks: the base64 text after `whsec_` (optional, as in the
 * `standardwebhooks` library), decoded. Secrets in the URL-safe alphabet, as issued before the standard one was
 * chosen, decode to the same bytes the API signs with.
 */
export function standardWebhooksKey(secret: string): Uint8Array {
  return keys.get(secret, () => {
    const key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    if (key === undefined || key.length === 0) {
      throw new WebhookVerificationError(
        'invalid_secret',
        'This secret is not base64 after whsec_, as Standard Webhooks secrets are: pass it exactly as the API returned it.',
      );
    }
    return key;
  });
}

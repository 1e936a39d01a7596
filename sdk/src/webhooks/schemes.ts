// The headers of both signature schemes (Cardrail-Signature: hex HMAC of `<t>.<body>`; Standard Webhooks,
// https://www.standardwebhooks.com: base64 HMAC of `<id>.<t>.<body>`), and the Standard Webhooks key.
import { base64ToBytes } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import { refusal } from './signature-checks.js';
import type { ParsedSignatureHeader, ParsedStandardWebhooksHeaders } from './types.js';

/** Name of the HTTP header that carries the Cardrail-Signature scheme. */
export const SIGNATURE_HEADER = 'Cardrail-Signature';

const DIGITS = /^\d+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;
/** What a message id may hold: printable ASCII without spaces, so that it survives every HTTP stack unchanged. */
export const MESSAGE_ID = /^[\x21-\x7e]{1,255}$/;

/**
 * Parses comma-separated `key=value` elements in any order: exactly one `t=<unix seconds>`, one or more `v1=<64 hex>`.
 * Whitespace, empty elements, hex case, empty `v1=` and unknown schemes (`v0=`, a future `v2=`) pass. Anything else is
 * `malformed_header`, no `v1` `missing_signature`, no header or a blank one `missing_header`.
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader {
  if (header == null || header.trim() === '') {
    throw refusal('missing_header', `No ${SIGNATURE_HEADER} header was found on the request.`);
  }
  const malformed = (reason: string) => refusal('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${reason}.`);
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
  if (signatures.length > 0) return { timestamp, signatures };
  throw refusal('missing_signature', `The ${SIGNATURE_HEADER} header has no v1 signature.`);
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

/**
 * Parses the three headers (absent or empty ones `undefined`; some but not all is `missing_header`): an id of printable
 * ASCII without spaces, digits, and space-separated `<version>,<value>` signatures whose `v1` values are base64 of 32
 * bytes (others, such as `v1a`, are skipped; no `v1` is `missing_signature`). Anything else is `malformed_header`.
 */
export function parseStandardWebhooksHeaders(
  id: string | undefined,
  timestamp: string | undefined,
  signature: string | undefined,
): ParsedStandardWebhooksHeaders {
  if (id === undefined || timestamp === undefined || signature === undefined) {
    const message = 'The request has some Standard Webhooks headers but not all three of webhook-id, webhook-timestamp and';
    throw refusal('missing_header', `${message} webhook-signature.`);
  }
  const malformed = (reason: string) => refusal('malformed_header', `Malformed Standard Webhooks headers: ${reason}.`);
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
  if (signatures.length > 0) return { id: messageId, timestamp: Number(seconds), signatures };
  throw refusal('missing_signature', 'The webhook-signature header has no v1 signature.');
}

// Decoded once per secret: a receiver verifies every delivery with the same one or two secrets.
const keys = /* @__PURE__ */ new BoundedCache<Uint8Array>(16);
/** The base64 after `whsec_` (optional, as in `standardwebhooks`), decoded; the URL-safe alphabet of old secrets too. */
export function standardWebhooksKey(secret: string): Uint8Array {
  return keys.get(secret, () => {
    const key = base64ToBytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
    if (key !== undefined && key.length > 0) return key;
    const fix = 'pass it exactly as the API returned it';
    throw refusal('invalid_secret', `This secret is not base64 after whsec_, as Standard Webhooks secrets are: ${fix}.`);
  });
}

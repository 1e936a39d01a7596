// The Standard Webhooks scheme (https://www.standardwebhooks.com), what the `standardwebhooks` and `svix` libraries
// verify: `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`, a space-separated list of
// `v1,<base64>` entries, each the base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed with the secret's bytes
// (the base64 text after `whsec_`, decoded). One entry per active secret during a rotation.
import { WebhookVerificationError } from '../errors.js';
import { base64ToBytes } from './base64.js';
import { BoundedCache } from './bounded-cache.js';

/** The Standard Webhooks headers, lower-case as HTTP/2 and Node write header names. */
export const STANDARD_WEBHOOKS_HEADERS = {
  /** The message id: the delivery's, the same on every attempt of it. */
  id: 'webhook-id',
  /** Unix seconds of the attempt. */
  timestamp: 'webhook-timestamp',
  /** `v1,<base64>` entries, one per active secret, separated by spaces. */
  signature: 'webhook-signature',
} as const;

/** The Standard Webhooks headers of a delivery, parsed. */
export interface ParsedStandardWebhooksHeaders {
  /** The message id (`webhook-id`): the same on every retry of one delivery, so receivers can deduplicate. */
  id: string;
  /** Unix seconds of `webhook-timestamp`. */
  timestamp: number;
  /** Every `v1,` signature, in header order (base64 of 32 bytes). */
  signatures: string[];
}

const DIGITS = /^\d+$/;
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

function malformed(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Malformed Standard Webhooks headers: ${reason}.`);
}

/** What Standard Webhooks signs before the body. */
export function standardWebhooksPrefix(id: string, timestamp: number): string {
  return `${id}.${timestamp}.`;
}

/** `v1,<base64>` entries, one per digest, in order. */
export function formatStandardWebhooksSignature(signatures: readonly string[]): string {
  return signatures.map((signature) => `v1,${signature}`).join(' ');
}

// Decoded once per secret: a receiver verifies every delivery with the same one or two secrets.
const keys = /* @__PURE__ */ new BoundedCache<Uint8Array>(16);

/**
 * The HMAC key of a secret under Standard Webhooks: the base64 text after `whsec_` (the prefix is optional, as in the
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

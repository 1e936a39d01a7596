// The two signature schemes a delivery carries, their grammars, keys and refusals.
//
// The Cardrail-Signature scheme: `Cardrail-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each v1 the lower-case
// hex HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret string (`whsec_` included) as UTF-8.
//
// The Standard Webhooks scheme (https://www.standardwebhooks.com), what the `standardwebhooks` and `svix` libraries
// verify: `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature`, a space-separated list of
// `v1,<base64>` entries, each the base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>` keyed with the secret's bytes
// (the base64 text after `whsec_`, decoded). One entry per active secret during a rotation.
import { base64ToBytes } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import { WebhookVerificationError } from '../errors.js';

/** Name of the HTTP header that carries the Cardrail-Signature scheme. */
export const SIGNATURE_HEADER = 'Cardrail-Signature';

/** A `Cardrail-Signature` header, parsed: `t=<unix seconds>,v1=<hex>[,v1=<hex>]`. */
export interface ParsedSignatureHeader {
  /** Unix seconds the sender put in `t=`. */
  timestamp: number;
  /** Every non-empty `v1=` digest, lower-cased, in header order. */
  signatures: string[];
}

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
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const element of header.split(',')) {
    const part = element.trim();
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) throw malformedCardrail(`element "${part}" is not a key=value pair`);
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      if (timestamp !== undefined) throw malformedCardrail('more than one t= element');
      if (!DIGITS.test(value)) throw malformedCardrail(`t= must be unix seconds, got "${value}"`);
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) throw malformedCardrail(`t= is out of range: "${value}"`);
    } else if (scheme === 'v1') {
      if (value === '') continue;
      const digest = value.toLowerCase();
      if (!SHA256_HEX.test(digest)) throw malformedCardrail('v1= must be 64 hexadecimal characters');
      signatures.push(digest);
    }
    // Other schemes are skipped on purpose: a sender may add new ones before receivers understand them.
  }
  if (timestamp === undefined) throw malformedCardrail('no t= element');
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER} header has no v1 signature.`);
  }
  return { timestamp, signatures };
}

function malformedCardrail(reason: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${reason}.`);
}

/** The header's value for digests made at `timestamp`, one `v1=` per secret in order. */
export function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/** What Cardrail-Signature signs before the body. */
export function cardrailPrefix(timestamp: number): string {
  return `${timestamp}.`;
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

/** The Standard Webhooks headers of a delivery, parsed. */
export interface ParsedStandardWebhooksHeaders {
  /** The message id (`webhook-id`): the same on every retry of one delivery, so receivers can deduplicate. */
  id: string;
  /** Unix seconds of `webhook-timestamp`. */
  timestamp: number;
  /** Every `v1,` signature, in header order (base64 of 32 bytes). */
  signatures: string[];
}

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
  if (!MESSAGE_ID.test(messageId)) throw malformedStandard('webhook-id must be printable ASCII without spaces');
  const seconds = timestamp.trim();
  if (!DIGITS.test(seconds) || !Number.isSafeInteger(Number(seconds))) {
    throw malformedStandard(`webhook-timestamp must be unix seconds, got "${seconds}"`);
  }
  const signatures: string[] = [];
  for (const entry of signature.split(' ')) {
    if (entry === '') continue;
    const comma = entry.indexOf(',');
    if (comma <= 0) throw malformedStandard(`"${entry}" is not <version>,<signature>`);
    if (entry.slice(0, comma) !== 'v1') continue;
    const value = entry.slice(comma + 1);
    if (!SHA256_BASE64.test(value)) throw malformedStandard('a v1 signature must be the base64 of 32 bytes');
    signatures.push(value);
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', 'The webhook-signature header has no v1 signature.');
  }
  return { id: messageId, timestamp: Number(seconds), signatures };
}

function malformedStandard(reason: string): WebhookVerificationError {
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

// The Cardrail-Signature scheme: `Cardrail-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`, each v1 the lower-case
// hex HMAC-SHA256 of `<t>.<raw body>` keyed with the whole secret string (`whsec_` included) as UTF-8.
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
    if (separator <= 0) throw malformed(`element "${part}" is not a key=value pair`);
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      if (timestamp !== undefined) throw malformed('more than one t= element');
      if (!DIGITS.test(value)) throw malformed(`t= must be unix seconds, got "${value}"`);
      timestamp = Number(value);
      if (!Number.isSafeInteger(timestamp)) throw malformed(`t= is out of range: "${value}"`);
    } else if (scheme === 'v1') {
      if (value === '') continue;
      const digest = value.toLowerCase();
      if (!SHA256_HEX.test(digest)) throw malformed('v1= must be 64 hexadecimal characters');
      signatures.push(digest);
    }
    // Other schemes are skipped on purpose: a sender may add new ones before receivers understand them.
  }
  if (timestamp === undefined) throw malformed('no t= element');
  if (signatures.length === 0) {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER} header has no v1 signature.`);
  }
  return { timestamp, signatures };
}

function malformed(reason: string): WebhookVerificationError {
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

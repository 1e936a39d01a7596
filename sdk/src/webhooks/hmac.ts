import { WebhookVerificationError } from '../errors.js';

/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];

const encoder = new TextEncoder();

/** Secrets as a non-empty list; the whole string, `whsec_` prefix included, is the key. */
export function secretList(secret: unknown): string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || !secrets.every((entry) => typeof entry === 'string' && entry !== '')) {
    throw new WebhookVerificationError('invalid_secret', 'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.');
  }
  return secrets as string[];
}

function importKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** `<t>.` followed by the body bytes, untouched (a body need not be valid UTF-8 to be verified). */
export function signedContent(timestamp: number, payload: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix, 0);
  content.set(payload, prefix.length);
  return content;
}

export async function hmacSha256Hex(secret: string, content: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.sign('HMAC', await importKey(secret, 'sign'), content));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Web Crypto's HMAC verify compares in constant time, so no hand-written comparison is needed.
 * `hexDigest` has already been checked to be 64 hex characters.
 */
export async function hmacSha256Matches(secret: string, content: Uint8Array<ArrayBuffer>, hexDigest: string): Promise<boolean> {
  const expected = new Uint8Array(32);
  for (let index = 0; index < 32; index += 1) expected[index] = Number.parseInt(hexDigest.slice(index * 2, index * 2 + 2), 16);
  return crypto.subtle.verify('HMAC', await importKey(secret, 'verify'), expected, content);
}

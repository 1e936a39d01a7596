import { WebhookVerificationError } from '../errors.js';
import { hmacSha256Key } from './hmac-key-cache.js';

/** One signing secret or several (during rotation the old and new secret both sign). */
export type WebhookSecret = string | readonly string[];

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const encoder = /* @__PURE__ */ new TextEncoder();

/** Secrets as a non-empty list; the whole string, `whsec_` prefix included, is the key. */
export function secretList(secret: unknown): string[] {
  const secrets: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || !secrets.every((entry) => typeof entry === 'string' && entry !== '')) {
    throw new WebhookVerificationError('invalid_secret', 'The webhook secret must be a non-empty string or a non-empty list of non-empty strings.');
  }
  return secrets as string[];
}

/** `<t>.` followed by the body bytes, untouched (a body need not be valid UTF-8 to be verified). */
export function signedContent(timestamp: number, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  // A string body is encoded once, together with its ASCII prefix, instead of being encoded and then copied.
  if (typeof payload === 'string') return encoder.encode(`${timestamp}.${payload}`);
  const prefix = encoder.encode(`${timestamp}.`);
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix, 0);
  content.set(payload, prefix.length);
  return content;
}

export function hmacSha256(secret: string, content: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> {
  const { key, importing } = hmacSha256Key(secret);
  // Once imported, the key is used directly: no promise between the caller and the runtime's crypto.
  if (key !== undefined) return crypto.subtle.sign('HMAC', key, content);
  return importing.then((imported) => crypto.subtle.sign('HMAC', imported, content));
}

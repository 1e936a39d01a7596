import { createHmac } from 'node:crypto';

/**
 * Lower-case hex HMAC-SHA256 of `<t>.` + body under `secret`, with node:crypto: synchronous, on the calling thread.
 * The body is fed to the HMAC as it is (a Buffer or string is neither copied nor concatenated first); the whole secret
 * string, `whsec_` prefix included, is the key, as with Web Crypto.
 */
export function nodeHexDigest(secret: string, timestamp: number, payload: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

import { bytesToHex } from './hex.js';
import { hmacSha256Key, utf8 } from './hmac-key-cache.js';

/** `<t>.` followed by the body bytes, untouched (a body need not be valid UTF-8 to be verified). */
function signedContent(timestamp: number, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  // A string body is encoded once, together with its ASCII prefix, instead of being encoded and then copied.
  if (typeof payload === 'string') return utf8.encode(`${timestamp}.${payload}`);
  const prefix = utf8.encode(`${timestamp}.`);
  const content = new Uint8Array(prefix.length + payload.length);
  content.set(prefix, 0);
  content.set(payload, prefix.length);
  return content;
}

/**
 * Lower-case hex HMAC-SHA256 of `<t>.` + body under each secret, in order, with Web Crypto. The signed content is
 * built once for all secrets; the secrets' HMACs run concurrently.
 */
export async function webCryptoHexDigests(
  secrets: readonly string[],
  timestamp: number,
  payload: string | Uint8Array,
): Promise<string[]> {
  const content = signedContent(timestamp, payload);
  const digests = await Promise.all(
    secrets.map(async (secret) => crypto.subtle.sign('HMAC', await hmacSha256Key(secret), content)),
  );
  return digests.map((digest) => bytesToHex(new Uint8Array(digest)));
}

import { bytesToHex } from '../hex.js';
import type { HexDigests } from './signature-checks.js';

/**
 * Imported HMAC keys, one per secret. Importing costs about as much as signing itself on some runtimes (WebIDL checks,
 * a trip to a thread pool), and a receiver verifies every delivery with the same one or two secrets, so each is
 * imported once.
 *
 * The map holds the secret string the caller passes on every call (usually straight from the environment), so it
 * keeps nothing alive that the application does not already hold; the keys are non-extractable. It is bounded, least
 * recently used first out, so an application verifying for many endpoints cannot grow it without limit.
 */
const MAX_CACHED_KEYS = 16;

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const utf8 = /* @__PURE__ */ new TextEncoder();

/** Pending or done imports: calls made while an import is pending share it. */
const keys = new Map<string, Promise<CryptoKey>>();

/** The whole secret string, `whsec_` prefix included, is the key. */
function hmacSha256Key(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  // Deleting and re-inserting moves the entry to the end of the map's order: the first entry is the least recently used.
  if (key !== undefined) keys.delete(secret);
  else {
    key = crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // A failed import (no Web Crypto on this runtime) is not remembered: the next call tries again.
    key.catch(() => keys.get(secret) === key && keys.delete(secret));
    if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  }
  keys.set(secret, key);
  return key;
}

/** How many keys are cached; for tests of the bound. */
export function cachedHmacKeyCount(): number {
  return keys.size;
}

/** The prefix followed by the body bytes, untouched (a body need not be valid UTF-8 to be verified). */
function signedBytes(prefix: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  // A string body is encoded once, together with its ASCII prefix, instead of being encoded and then copied.
  if (typeof payload === 'string') return utf8.encode(prefix + payload);
  const head = utf8.encode(prefix);
  const content = new Uint8Array(head.length + payload.length);
  content.set(head, 0);
  content.set(payload, head.length);
  return content;
}

/**
 * HMAC-SHA256 with Web Crypto, what browsers, edge runtimes and workers have: asynchronous only. The signed content
 * is built once for all secrets; the secrets' HMACs run concurrently, one trip to the runtime's crypto per secret
 * (the cost that dominates), each compared with every signature of the header.
 */
export const webCryptoHexDigests: HexDigests = async ({ secrets, prefix, payload }) => {
  const content = signedBytes(prefix, payload);
  const digests = await Promise.all(
    secrets.map(async (secret) => crypto.subtle.sign('HMAC', await hmacSha256Key(secret), content)),
  );
  return digests.map((digest) => bytesToHex(new Uint8Array(digest)));
};

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
export const utf8 = /* @__PURE__ */ new TextEncoder();

/** Pending or done imports: calls made while an import is pending share it. */
const keys = new Map<string, Promise<CryptoKey>>();

/** The whole secret string, `whsec_` prefix included, is the key. */
export function hmacSha256Key(secret: string): Promise<CryptoKey> {
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

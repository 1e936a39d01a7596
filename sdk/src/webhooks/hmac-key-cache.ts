/**
 * Imported HMAC keys, one per secret. Importing costs about as much as signing itself on some runtimes (Node's Web
 * Crypto runs both through WebIDL checks and its thread pool), and a receiver verifies every delivery with the same
 * one or two secrets, so each is imported once.
 *
 * The map holds the secret string the caller passes on every call (usually straight from the environment), so it
 * keeps nothing alive that the application does not already hold; the keys are non-extractable. It is bounded, least
 * recently used first out, so an application verifying for many endpoints cannot grow it without limit.
 */
const MAX_CACHED_KEYS = 16;

interface CachedKey {
  /** Shared by calls made while the import is pending. */
  readonly importing: Promise<CryptoKey>;
  /** Set once imported, so later calls sign without waiting on a promise. */
  key?: CryptoKey;
}

const keys = new Map<string, CachedKey>();

/** The whole secret string, `whsec_` prefix included, is the key. */
export function hmacSha256Key(secret: string): CachedKey {
  const cached = keys.get(secret);
  if (cached !== undefined) {
    // Re-inserting moves the entry to the end of the map's order: the first entry is the least recently used.
    keys.delete(secret);
    keys.set(secret, cached);
    return cached;
  }
  const entry: CachedKey = {
    importing: crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']).then(
      (key) => (entry.key = key),
      (error: unknown) => {
        // A failed import (no Web Crypto on this runtime) is not remembered: the next call tries again.
        if (keys.get(secret) === entry) keys.delete(secret);
        throw error;
      },
    ),
  };
  if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value as string);
  keys.set(secret, entry);
  return entry;
}

/** How many keys are cached; for tests of the bound. */
export function cachedHmacKeyCount(): number {
  return keys.size;
}

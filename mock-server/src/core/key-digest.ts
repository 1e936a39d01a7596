import { sha256Hex } from './sha256.js';

/**
 * The SHA-256 digest (hex) of an API key: what the mock stores and looks keys up by. A lookup hashes the presented
 * key and finds the digest in a Map, so no stored secret is ever compared with the presented one character by
 * character, and no store, snapshot, export or log holds a key after its create answer.
 */
export function keyDigest(key: string): string {
  return sha256Hex(key);
}

/**
 * Where a request may get its key's digest sooner than by hashing it: the Node transport remembers, per open
 * connection, the key that connection presented last and its digest (a keep-alive client presents the same key on
 * every request), and compares a key with it in constant time. Without one, the key is hashed.
 */
export interface KeyDigestSource {
  /** The SHA-256 digest (hex) of `key`, as `keyDigest` gives it; a transport that has it at hand skips the hash. */
  digestOfKey?(key: string): string;
}

/** How a key is shown after creation: its mode prefix and last four characters. */
export function redactKey(key: string, mode: 'test' | 'live'): string {
  return `sk_${mode}_...${key.slice(-4)}`;
}

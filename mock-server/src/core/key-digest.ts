import { sha256Hex } from './sha256.js';

/**
 * The SHA-256 digest (hex) of an API key: what the mock stores and looks keys up by. A lookup hashes the presented
 * key and finds the digest in a Map, so no stored secret is ever compared with the presented one character by
 * character, and the key string itself is kept nowhere after its create answer.
 */
export function keyDigest(key: string): string {
  return sha256Hex(key);
}

/** How a key is shown after creation: its mode prefix and last four characters. */
export function redactKey(key: string, mode: 'test' | 'live'): string {
  return `sk_${mode}_...${key.slice(-4)}`;
}

import { sha256 as pureSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { nodeCrypto } from './node-crypto.js';

/**
 * SHA-256 of text, synchronously (authentication looks a key up by its digest on every request, and must not wait).
 * Web Crypto has no synchronous digest, so two implementations give the same bytes: node:crypto where the runtime
 * offers it (node-crypto.ts); elsewhere @noble/hashes, audited pure JavaScript. On Node the native one-shot hash of a
 * short key costs about a fifth of the pure one, which is a fifth of an in-process GET.
 */
const encoder = new TextEncoder();
const native = nodeCrypto;

/** The digest as lowercase hex. */
export const sha256Hex: (text: string) => string =
  typeof native?.hash === 'function'
    ? (text) => native.hash('sha256', text, 'hex')
    : (text) => bytesToHex(pureSha256(encoder.encode(text)));

/** The digest's 32 bytes. */
export const sha256Bytes: (text: string) => Uint8Array =
  native === undefined
    ? (text) => pureSha256(encoder.encode(text))
    : (text) => new Uint8Array(native.createHash('sha256').update(text, 'utf8').digest());

/** Which implementation this runtime uses, for tests that prove both agree. */
export const sha256Implementation: 'node:crypto' | '@noble/hashes' = native === undefined ? '@noble/hashes' : 'node:crypto';

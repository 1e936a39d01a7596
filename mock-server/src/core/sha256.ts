import { sha256 as pureSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { nodeCryptoWhenLoaded } from './node-crypto.js';

/**
 * SHA-256 of text, synchronously (authentication looks a key up by its digest on every request, and must not wait).
 * Web Crypto has no synchronous digest, so two implementations give the same bytes: node:crypto where the runtime
 * offers it and it is loaded (node-crypto.ts); before that and elsewhere @noble/hashes, audited pure JavaScript. On
 * Node the native one-shot hash of a short key costs about a fifth of the pure one, which is a fifth of an in-process
 * GET.
 */
const encoder = new TextEncoder();

/** The digest as lowercase hex. */
export function sha256Hex(text: string): string {
  const native = nodeCryptoWhenLoaded();
  return native ? native.hash('sha256', text, 'hex') : bytesToHex(pureSha256(encoder.encode(text)));
}

/** The digest's 32 bytes. */
export function sha256Bytes(text: string): Uint8Array {
  const native = nodeCryptoWhenLoaded();
  return native ? new Uint8Array(native.createHash('sha256').update(text, 'utf8').digest()) : pureSha256(encoder.encode(text));
}

/** The pure JavaScript digest as lowercase hex, whatever the runtime: for tests that prove both implementations agree. */
export function pureSha256Hex(text: string): string {
  return bytesToHex(pureSha256(encoder.encode(text)));
}

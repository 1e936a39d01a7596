// The mock's core runs wherever a Request does: the two SHA-256 implementations (node:crypto where the runtime has it,
// @noble/hashes elsewhere and before node:crypto is loaded) and the base64url helpers give the same bytes as Node's
// own. (That a browser bundle of the
// published entries holds no Node built-in is runtime-tests/test/bundles.test.ts.)
import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { base64urlToText, bytesToBase64url, textToBase64url } from '../src/core/base64url.js';
import { decodeCursor, encodeCursor } from '../src/core/cursor.js';
import { nodeCrypto } from '../src/core/node-crypto.js';
import { pureSha256Hex, sha256Bytes, sha256Hex } from '../src/core/sha256.js';

describe('SHA-256 without node:crypto', () => {
  const vectors = ['', 'abc', 'sk_test_abcdefghijklmnop', 'é€😀 mixed UTF-8', 'x'.repeat(100_000)];

  it('gives the bytes of node:crypto, through either implementation', () => {
    for (const text of vectors) {
      const expected = createHash('sha256').update(text, 'utf8').digest('hex');
      expect(pureSha256Hex(text)).toBe(expected);
      expect(sha256Hex(text)).toBe(expected);
      expect(bytesToHex(sha256Bytes(text))).toBe(expected);
      expect(bytesToHex(sha256(new TextEncoder().encode(text)))).toBe(expected);
    }
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // Once node:crypto is loaded (after a server's first answer), the digests are its own, and the same.
    expect(nodeCrypto()).toBeDefined();
    for (const text of vectors) expect(sha256Hex(text)).toBe(pureSha256Hex(text));
  });
});

describe('base64url without Buffer', () => {
  it("encodes like Node's Buffer, and decodes what it encodes", () => {
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0xfb, 0xff, 0xbf), crypto.getRandomValues(new Uint8Array(24))]) {
      expect(bytesToBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
    for (const text of ['s1', 's2zzzzzzzzz', 'é€😀']) {
      expect(textToBase64url(text)).toBe(Buffer.from(text).toString('base64url'));
      expect(base64urlToText(textToBase64url(text))).toBe(text);
    }
  });

  it('refuses what is not base64url, so a garbled cursor is no cursor', () => {
    expect(base64urlToText('a+b/')).toBeUndefined();
    expect(base64urlToText('abcde')).toBeUndefined();
    expect(decodeCursor(encodeCursor(12345))).toBe(12345);
    expect(decodeCursor('cur_!!!')).toBeUndefined();
    expect(decodeCursor('cur_')).toBeUndefined();
  });
});

import zlib from 'node:zlib';

/**
 * The CRC-32 of a stored text (a record's or an idempotency key's JSON). SQLite checks its pages' structure, not what
 * they hold: a changed digit in an amount is still a valid page. Each row carries the CRC of its text, checked when
 * it is read, so such a change is found instead of loaded (zlib's crc32, Node.js 20.15+ and 22.2+).
 */
export function checksum(text: string): number {
  return zlib.crc32(text);
}

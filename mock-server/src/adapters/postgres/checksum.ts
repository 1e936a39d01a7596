import zlib from 'node:zlib';

/**
 * The CRC-32 of a stored text (a record's or an idempotency key's JSON): each row carries it, checked when it is read,
 * so a changed digit in an amount is found instead of loaded. The same function as the SQLite store's, so a state
 * moved between them (`state export`, `state import`) keeps its checksums meaningful.
 */
export function checksum(text: string): number {
  return zlib.crc32(text);
}

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * SQLite's write-ahead log as its file format describes it (https://sqlite.org/fileformat2.html#walformat, "The WAL
 * File Format"), read without SQLite: a 32-byte header (magic, format version, page size, checkpoint sequence number,
 * two salts, a checksum of the header), then frames of a 24-byte header and one page each. A frame counts only when
 * its salts are the header's and its checksum, chained from the header's through every frame before it, holds; a
 * transaction only when its last frame is a commit frame (it names the database's size after the commit).
 *
 * Nothing in the log names the database it belongs to: SQLite applies any log whose header and frames are valid to
 * whatever database sits beside it. The log's identity (its checkpoint sequence number and salts, which SQLite draws
 * anew each time it starts the log over) is what the seal records with each commit, so that the next start can tell
 * this database's log from another copy's before SQLite reads it (check.ts).
 */
export interface WalIdentity {
  /** The checkpoint sequence number: how many times this log was started over. */
  checkpoint: number;
  salt1: number;
  salt2: number;
}

/** The identity of no log: what the seal records when the log was removed by a clean stop (or never written). */
export const NO_WAL: WalIdentity = { checkpoint: 0, salt1: 0, salt2: 0 };

export interface WalHeader extends WalIdentity {
  pageSize: number;
  /** Whether checksums read the file's 32-bit words big-endian (magic 0x377f0683) or little-endian (0x377f0682). */
  bigEndian: boolean;
  /** The header's own checksum, which the first frame's chains from. */
  checksum: [number, number];
}

const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC = 0x377f0682;
const FORMAT_VERSION = 3007000;

export function sameWal(a: WalIdentity, b: WalIdentity): boolean {
  return a.checkpoint === b.checkpoint && a.salt1 === b.salt1 && a.salt2 === b.salt2;
}

/** How the seal and the messages write an identity: three 8-digit hexadecimal numbers. */
export function walIdentityText(identity: WalIdentity): string {
  return [identity.checkpoint, identity.salt1, identity.salt2].map((n) => n.toString(16).padStart(8, '0')).join('');
}

/**
 * The header of the log at `fd` (an open file), or undefined when there is none SQLite would use: shorter than a
 * header (empty: a log checkpointed and cut to nothing), or whose magic, version or checksum does not hold (SQLite
 * then ignores the whole file).
 */
export function readWalHeader(fd: number): WalHeader | undefined {
  const bytes = Buffer.alloc(HEADER_BYTES);
  if (readSync(fd, bytes, 0, HEADER_BYTES, 0) < HEADER_BYTES) return undefined;
  const magic = bytes.readUInt32BE(0);
  if ((magic & 0xfffffffe) !== MAGIC || bytes.readUInt32BE(4) !== FORMAT_VERSION) return undefined;
  const bigEndian = (magic & 1) === 1;
  const checksum = walChecksum(bytes.subarray(0, 24), bigEndian, [0, 0]);
  if (checksum[0] !== bytes.readUInt32BE(24) || checksum[1] !== bytes.readUInt32BE(28)) return undefined;
  return {
    pageSize: bytes.readUInt32BE(8),
    checkpoint: bytes.readUInt32BE(12),
    salt1: bytes.readUInt32BE(16),
    salt2: bytes.readUInt32BE(20),
    bigEndian,
    checksum,
  };
}

/** The header of the log at `path`, or undefined when the file is missing or holds none SQLite would use. */
export function walHeaderOf(path: string): WalHeader | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return fstatSync(fd).isFile() ? readWalHeader(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * How many whole transactions SQLite would find in the log at `path`: frames read one at a time, in order, up to the
 * first whose salts or chained checksum do not hold; a transaction counts at its commit frame. Cost: one read of the
 * log (it is bounded: store.ts).
 */
export function walTransactions(path: string, header: WalHeader): number {
  const fd = openSync(path, 'r');
  try {
    const frameBytes = FRAME_HEADER_BYTES + header.pageSize;
    const frame = Buffer.alloc(frameBytes);
    let checksum = header.checksum;
    let transactions = 0;
    for (let offset = HEADER_BYTES; readSync(fd, frame, 0, frameBytes, offset) === frameBytes; offset += frameBytes) {
      if (frame.readUInt32BE(8) !== header.salt1 || frame.readUInt32BE(12) !== header.salt2) break;
      checksum = walChecksum(frame.subarray(0, 8), header.bigEndian, checksum);
      checksum = walChecksum(frame.subarray(FRAME_HEADER_BYTES), header.bigEndian, checksum);
      if (checksum[0] !== frame.readUInt32BE(16) || checksum[1] !== frame.readUInt32BE(20)) break;
      if (frame.readUInt32BE(4) !== 0) transactions++;
    }
    return transactions;
  } finally {
    closeSync(fd);
  }
}

/** SQLite's log checksum: two running sums over the 32-bit words of `bytes`, taken in pairs, from `start`. */
function walChecksum(bytes: Buffer, bigEndian: boolean, start: [number, number]): [number, number] {
  let [s0, s1] = start;
  const words = bytes.length >>> 2;
  for (let i = 0; i < words; i += 2) {
    const x0 = bigEndian ? bytes.readUInt32BE(i * 4) : bytes.readUInt32LE(i * 4);
    const x1 = bigEndian ? bytes.readUInt32BE(i * 4 + 4) : bytes.readUInt32LE(i * 4 + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

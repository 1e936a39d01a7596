import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { RandomSource } from './ids.js';
import { sha256Bytes } from './sha256.js';

/** Where a seeded generator stands: enough to continue its sequence after a restart (part of the saved state). */
export interface RandomPosition {
  /** The seed the sequence is made from (`MockServerOptions.seed`, a fixtures file's `seed`). */
  seed: string;
  /** Blocks of the sequence used so far. */
  counter: number;
  /** Bytes of the current block not handed out yet, as hex. */
  pool: string;
}

/** A reproducible RandomSource that can tell and take its position. */
export interface SeededRandom extends RandomSource {
  position(): RandomPosition;
  moveTo(position: RandomPosition): void;
}

/** A reproducible RandomSource: SHA-256 of the seed and a counter. Same seed, same ids, run after run. */
export function seededRandom(initialSeed: string): SeededRandom {
  let seed = initialSeed;
  let counter = 0;
  let pool = new Uint8Array(0);
  const next = (size: number): Uint8Array => {
    while (pool.length < size) {
      const block = sha256Bytes(`${seed}:${counter++}`);
      const joined = new Uint8Array(pool.length + block.length);
      joined.set(pool);
      joined.set(block, pool.length);
      pool = joined;
    }
    const out = pool.slice(0, size);
    pool = pool.subarray(size);
    return out;
  };
  return Object.assign(next, {
    position: (): RandomPosition => ({
      seed,
      counter,
      pool: bytesToHex(pool),
    }),
    moveTo(position: RandomPosition) {
      seed = position.seed;
      counter = position.counter;
      pool = hexToBytes(position.pool);
    },
  });
}

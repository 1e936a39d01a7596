import { createHash } from 'node:crypto';
import type { RandomSource } from './ids.js';

/** A reproducible RandomSource: SHA-256 of the seed and a counter. Same seed, same ids, run after run. */
export function seededRandom(seed: string): RandomSource {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (size) => {
    while (pool.length < size) {
      pool = Buffer.concat([pool, createHash('sha256').update(`${seed}:${counter++}`).digest()]);
    }
    const out = pool.subarray(0, size);
    pool = pool.subarray(size);
    return new Uint8Array(out);
  };
}

import type { RandomSource } from './ids.js';
import { sha256Bytes } from './sha256.js';

/** A reproducible RandomSource: SHA-256 of the seed and a counter. Same seed, same ids, run after run. */
export function seededRandom(seed: string): RandomSource {
  let counter = 0;
  let pool = new Uint8Array(0);
  return (size) => {
    while (pool.length < size) {
      const block = sha256Bytes(`${seed}:${counter++}`);
      const grown = new Uint8Array(pool.length + block.length);
      grown.set(pool);
      grown.set(block, pool.length);
      pool = grown;
    }
    const out = pool.slice(0, size);
    pool = pool.slice(size);
    return out;
  };
}

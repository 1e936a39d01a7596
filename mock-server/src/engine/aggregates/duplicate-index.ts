import { normalizeName } from '../policy/merge-policies.js';
import type { EpochMs } from '../types.js';
import { NO_METER, type OperationMeter } from './operation-meter.js';

interface Seen {
  transactionId: string;
  at: EpochMs;
}

/** Entries older than this are never needed: the duplicate window is at most 7 days (RiskConfig schema). */
const MAX_WINDOW_MS = 10_080 * 60_000;
/** Old entries dropped per insertion; a small constant keeps each call bounded while memory still shrinks. */
const EVICTIONS_PER_INSERT = 2;

/** The latest approved transaction per merchant and amount on one card, for the duplicate detector. */
export class DuplicateIndex {
  // A Map iterates in insertion order; re-inserting on each hit keeps the oldest entries first for eviction.
  readonly #latest = new Map<string, Seen>();

  constructor(private readonly meter: OperationMeter = NO_METER) {}

  static key(merchantName: string, amount: number): string {
    return `${normalizeName(merchantName)}\u0000${amount}`;
  }

  lookup(merchantName: string, amount: number): Seen | undefined {
    this.meter.tick();
    return this.#latest.get(DuplicateIndex.key(merchantName, amount));
  }

  record(merchantName: string, amount: number, transactionId: string, at: EpochMs): void {
    const key = DuplicateIndex.key(merchantName, amount);
    this.#latest.delete(key);
    this.#latest.set(key, { transactionId, at });
    this.meter.tick(2);
    let evicted = 0;
    for (const [oldKey, seen] of this.#latest) {
      if (evicted >= EVICTIONS_PER_INSERT || at - seen.at <= MAX_WINDOW_MS) break;
      this.meter.tick();
      this.#latest.delete(oldKey);
      evicted++;
    }
  }

  get size(): number {
    return this.#latest.size;
  }
}

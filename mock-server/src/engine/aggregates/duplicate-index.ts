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
  readonly #latest = new Map<string, Seen>();
  /**
   * Every recording in time order, for eviction: the queue's head is the oldest, so dropping old entries is O(1)
   * each. (Walking the Map from its start instead slowed down as a busy card's deleted entries piled up.)
   */
  #queue: { key: string; seen: Seen }[] = [];
  #head = 0;

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
    const seen = { transactionId, at };
    this.#latest.set(key, seen);
    this.#queue.push({ key, seen });
    this.meter.tick(2);
    for (let evicted = 0; evicted < EVICTIONS_PER_INSERT && this.#head < this.#queue.length; evicted++) {
      // #head < length (the loop's bound): the entry exists.
      const oldest = this.#queue[this.#head] as { key: string; seen: Seen };
      if (at - oldest.seen.at <= MAX_WINDOW_MS) break;
      this.meter.tick();
      // A later recording of the same pair supersedes this one and stays.
      if (this.#latest.get(oldest.key) === oldest.seen) this.#latest.delete(oldest.key);
      this.#head++;
    }
    // Drop the consumed part of the queue once it is half of it, so the array does not keep every recording.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  get size(): number {
    return this.#latest.size;
  }
}

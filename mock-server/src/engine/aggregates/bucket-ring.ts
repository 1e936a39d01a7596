import type { EpochMs } from '../types.js';
import { NO_METER, type OperationMeter } from './operation-meter.js';

/**
 * A fixed number of consecutive time buckets (count and amount each), the newest last. Old buckets are recycled
 * as time moves on, so memory and the work of any call are bounded by the bucket count, never by history.
 */
export class BucketRing {
  readonly #counts: Float64Array;
  readonly #amounts: Float64Array;
  /** Absolute number (time / width) of the newest bucket. */
  #head = -Infinity;

  constructor(
    readonly widthMs: number,
    readonly size: number,
    private readonly meter: OperationMeter = NO_METER,
  ) {
    this.#counts = new Float64Array(size);
    this.#amounts = new Float64Array(size);
  }

  add(at: EpochMs, amount: number, count = 1): void {
    const bucket = this.#advance(at);
    const slot = this.#slot(bucket);
    this.#counts[slot] = (this.#counts[slot] ?? 0) + count;
    this.#amounts[slot] = (this.#amounts[slot] ?? 0) + amount;
    this.meter.tick();
  }

  /** Totals of the `buckets` newest buckets ending with the one containing `at`, skipping the newest `skip`. */
  total(at: EpochMs, buckets: number, skip = 0): { count: number; amount: number } {
    const newest = Math.floor(at / this.widthMs);
    let count = 0;
    let amount = 0;
    const span = Math.min(buckets, this.size);
    for (let i = skip; i < span; i++) {
      this.meter.tick();
      const bucket = newest - i;
      if (bucket > this.#head || bucket <= this.#head - this.size) continue;
      const slot = this.#slot(bucket);
      count += this.#counts[slot] ?? 0;
      amount += this.#amounts[slot] ?? 0;
    }
    return { count, amount };
  }

  #advance(at: EpochMs): number {
    const bucket = Math.floor(at / this.widthMs);
    if (bucket <= this.#head) return bucket;
    const stale = this.#head === -Infinity ? this.size : Math.min(bucket - this.#head, this.size);
    for (let i = 0; i < stale; i++) {
      this.meter.tick();
      const slot = this.#slot(bucket - i);
      this.#counts[slot] = 0;
      this.#amounts[slot] = 0;
    }
    this.#head = bucket;
    return bucket;
  }

  #slot(bucket: number): number {
    return ((bucket % this.size) + this.size) % this.size;
  }
}

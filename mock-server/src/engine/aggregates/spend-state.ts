import type { EpochMs, Merchant } from '../types.js';
import { BucketRing } from './bucket-ring.js';
import { CalendarSums } from './calendar-sums.js';
import { DuplicateIndex } from './duplicate-index.js';
import { NO_METER, type OperationMeter } from './operation-meter.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Most baseline days a spend-spike rule can ask for (RiskConfig schema) plus today. */
const BASELINE_DAYS = 91;
/** Longest spend-spike window (RiskConfig schema: 10080 minutes) in hours. */
const WINDOW_HOURS = 168;

/**
 * Everything the decision needs about a card's past approved spend, kept as running aggregates: calendar sums
 * for limits, minute/hour/day buckets for velocity and spend spikes, the latest spend per merchant and amount for
 * duplicates, and the last spend for cooldown. Nothing here grows with the number of transactions (the duplicate
 * index grows only with distinct merchant-and-amount pairs of the last 7 days).
 */
export class CardSpendState {
  readonly sums: CalendarSums;
  readonly #minutes: BucketRing;
  readonly #hours: BucketRing;
  readonly #days: BucketRing;
  readonly duplicates: DuplicateIndex;
  lastSpendAt: EpochMs | null = null;
  /** The first merchant the card was used at: the pinned merchant when the card has no hint. */
  firstMerchant: Merchant | null = null;

  constructor(private readonly meter: OperationMeter = NO_METER) {
    this.sums = new CalendarSums(meter);
    this.#minutes = new BucketRing(MINUTE_MS, 60, meter);
    this.#hours = new BucketRing(HOUR_MS, WINDOW_HOURS, meter);
    this.#days = new BucketRing(DAY_MS, BASELINE_DAYS, meter);
    this.duplicates = new DuplicateIndex(meter);
  }

  recordSpend(transactionId: string, amount: number, merchant: Merchant, at: EpochMs): void {
    this.sums.add(amount, at);
    this.#minutes.add(at, amount);
    this.#hours.add(at, amount);
    this.#days.add(at, amount);
    this.duplicates.record(merchant.name, amount, transactionId, at);
    this.lastSpendAt = at;
    this.firstMerchant ??= { ...merchant };
    this.meter.tick();
  }

  /** Approved transactions in the last 60 minutes (per-minute buckets). */
  countLastHour(at: EpochMs): number {
    return this.#minutes.total(at, 60).count;
  }

  /** Approved transactions in the last 24 hours (per-hour buckets). */
  countLastDay(at: EpochMs): number {
    return this.#hours.total(at, 24).count;
  }

  /** Approved spend in the last `minutes` (minute buckets up to an hour, hour buckets beyond). */
  spendInWindow(at: EpochMs, minutes: number): number {
    if (minutes <= 60) return this.#minutes.total(at, minutes).amount;
    return this.#hours.total(at, Math.ceil(minutes / 60)).amount;
  }

  /** Approved spend over the `days` whole days before today. */
  spendBeforeToday(at: EpochMs, days: number): number {
    return this.#days.total(at, days + 1, 1).amount;
  }
}

/** An agent's spend over all its cards, for its own limits. */
export class AgentSpendState {
  readonly sums: CalendarSums;

  constructor(meter: OperationMeter = NO_METER) {
    this.sums = new CalendarSums(meter);
  }
}

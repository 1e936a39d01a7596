import type { EpochMs, LimitWindow } from '../types.js';
import { dayIndex, monthIndex, weekIndex } from './calendar.js';
import { NO_METER, type OperationMeter } from './operation-meter.js';

type SumWindow = Exclude<LimitWindow, 'perAuth'>;

interface PeriodSum {
  period: number;
  sum: number;
}

const PERIOD_OF: Record<SumWindow, (at: EpochMs) => number> = {
  perDay: dayIndex,
  perWeek: weekIndex,
  perMonth: monthIndex,
  allTime: () => 0,
};

const SUM_WINDOWS: readonly SumWindow[] = ['perDay', 'perWeek', 'perMonth', 'allTime'];

/**
 * Spend in the current UTC day, ISO week, month and in total, each a running sum that restarts when its period
 * changes: reading or adding is O(1) whatever the history.
 */
export class CalendarSums {
  readonly #sums: Record<SumWindow, PeriodSum> = {
    perDay: { period: -1, sum: 0 },
    perWeek: { period: -1, sum: 0 },
    perMonth: { period: -1, sum: 0 },
    allTime: { period: 0, sum: 0 },
  };

  constructor(private readonly meter: OperationMeter = NO_METER) {}

  /** Spend so far in the period of `window` that contains `at`. */
  spent(window: SumWindow, at: EpochMs): number {
    this.meter.tick();
    const entry = this.#sums[window];
    return entry.period === PERIOD_OF[window](at) ? entry.sum : 0;
  }

  /** Adds `amount` (negative for a reversal) made at `at`, counted in the periods that contain `madeAt`. */
  add(amount: number, at: EpochMs, madeAt: EpochMs = at): void {
    for (const window of SUM_WINDOWS) {
      this.meter.tick();
      const entry = this.#sums[window];
      const period = PERIOD_OF[window](at);
      if (entry.period !== period) {
        entry.period = period;
        entry.sum = 0;
      }
      // A correction of an earlier spend only counts while that spend's period is still the current one.
      if (PERIOD_OF[window](madeAt) === period) entry.sum = Math.max(0, entry.sum + amount);
    }
  }
}

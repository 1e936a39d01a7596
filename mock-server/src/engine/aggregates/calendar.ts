import type { EpochMs } from '../types.js';

const DAY_MS = 86_400_000;

/** UTC calendar day number since the epoch. */
export function dayIndex(at: EpochMs): number {
  return Math.floor(at / DAY_MS);
}

/** ISO week number since the epoch; weeks start on Monday (1970-01-01 was a Thursday). */
export function weekIndex(at: EpochMs): number {
  return Math.floor((dayIndex(at) + 3) / 7);
}

let cachedDay = Number.NaN;
let cachedMonth = 0;

/** UTC calendar month number since year 0. */
export function monthIndex(at: EpochMs): number {
  // Every spend reads the month of "now": the day's month is kept rather than a Date made each time.
  const day = dayIndex(at);
  if (day !== cachedDay) {
    const date = new Date(day * DAY_MS);
    cachedMonth = date.getUTCFullYear() * 12 + date.getUTCMonth();
    cachedDay = day;
  }
  return cachedMonth;
}

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

/** UTC calendar month number since year 0. */
export function monthIndex(at: EpochMs): number {
  const date = new Date(at);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

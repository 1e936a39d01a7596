import { describe, expect, it } from 'vitest';
import { BucketRing } from '../../src/engine/aggregates/bucket-ring.js';
import { CalendarSums } from '../../src/engine/aggregates/calendar-sums.js';
import { DuplicateIndex } from '../../src/engine/aggregates/duplicate-index.js';
import { CardSpendState } from '../../src/engine/aggregates/spend-state.js';

const T = Date.parse('2026-11-23T12:00:00.000Z'); // a Monday
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('calendar sums', () => {
  it('restarts the day at UTC midnight, the week on Monday and the month on the 1st', () => {
    const sums = new CalendarSums();
    sums.add(1000, T);
    sums.add(500, T + HOUR);
    expect(sums.spent('perDay', T + 2 * HOUR)).toBe(1500);
    expect(sums.spent('perDay', T + DAY)).toBe(0);
    expect(sums.spent('perWeek', T + 6 * DAY)).toBe(1500); // Sunday
    expect(sums.spent('perWeek', T + 7 * DAY)).toBe(0); // next Monday
    expect(sums.spent('perMonth', Date.parse('2026-11-30T23:00:00Z'))).toBe(1500);
    expect(sums.spent('perMonth', Date.parse('2026-12-01T00:00:00Z'))).toBe(0);
    expect(sums.spent('allTime', T + 400 * DAY)).toBe(1500);
  });

  it('applies a correction only while the original spend is still in the current period', () => {
    const sums = new CalendarSums();
    sums.add(1000, T);
    sums.add(-400, T + DAY, T); // reversed the next day
    expect(sums.spent('perDay', T + DAY)).toBe(0);
    expect(sums.spent('perMonth', T + DAY)).toBe(600);
  });
});

describe('bucket ring', () => {
  it('totals the newest buckets and forgets what fell out of the ring', () => {
    const ring = new BucketRing(60_000, 60);
    ring.add(T, 100);
    ring.add(T + 30 * 60_000, 200);
    expect(ring.total(T + 30 * 60_000, 60)).toEqual({ count: 2, amount: 300 });
    expect(ring.total(T + 61 * 60_000, 60)).toEqual({ count: 1, amount: 200 });
    ring.add(T + 200 * 60_000, 5);
    expect(ring.total(T + 200 * 60_000, 60)).toEqual({ count: 1, amount: 5 });
  });
});

describe('duplicate index and card spend state', () => {
  it('remembers the latest transaction per merchant (any case) and amount', () => {
    const index = new DuplicateIndex();
    index.record('OpenAI', 2000, 'txn_a', T);
    index.record('openai ', 2000, 'txn_b', T + 1000);
    expect(index.lookup('OPENAI', 2000)).toEqual({ transactionId: 'txn_b', at: T + 1000 });
    expect(index.lookup('OpenAI', 2001)).toBeUndefined();
  });

  it('forgets pairs older than the longest duplicate window, but not one recorded again since', () => {
    const index = new DuplicateIndex();
    const WEEK = 7 * DAY;
    index.record('AWS', 100, 'txn_old', T);
    index.record('GCP', 100, 'txn_gcp', T);
    index.record('GCP', 100, 'txn_gcp2', T + DAY);
    for (let i = 0; i < 3000; i++) index.record(`Shop ${i}`, 1, `txn_${i}`, T + WEEK + 60_000 + i);
    expect(index.lookup('AWS', 100)).toBeUndefined();
    // Recorded again a day later, so still inside the window of the last recording.
    expect(index.lookup('GCP', 100)).toEqual({ transactionId: 'txn_gcp2', at: T + DAY });
    expect(index.size).toBe(3001);
    for (let i = 0; i < 3000; i++) index.record(`Late ${i}`, 1, `txn_late_${i}`, T + 3 * WEEK + i);
    // Every earlier pair is out of the window now; each insert evicts a bounded number, so two per insert suffice.
    expect(index.lookup('GCP', 100)).toBeUndefined();
    expect(index.lookup('Shop 0', 1)).toBeUndefined();
    expect(index.size).toBe(3000);
  });

  it('counts the last hour and day and compares spend windows with the days before today', () => {
    const state = new CardSpendState();
    for (let day = 7; day >= 1; day--) state.recordSpend(`txn_${day}`, 1000, { name: 'AWS' }, T - day * DAY);
    state.recordSpend('txn_now1', 200, { name: 'AWS' }, T - 2 * HOUR);
    state.recordSpend('txn_now2', 300, { name: 'AWS' }, T - 10 * 60_000);
    expect(state.countLastHour(T)).toBe(1);
    expect(state.countLastDay(T)).toBe(2);
    expect(state.spendInWindow(T, 60)).toBe(300);
    expect(state.spendInWindow(T, 180)).toBe(500);
    expect(state.spendBeforeToday(T, 7)).toBe(7000);
    expect(state.lastSpendAt).toBe(T - 10 * 60_000);
    expect(state.firstMerchant).toEqual({ name: 'AWS' });
  });
});

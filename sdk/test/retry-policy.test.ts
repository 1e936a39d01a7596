import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryAfterMs, retryDelayMs } from '../src/core/retry-policy.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('backoff without Retry-After', () => {
  it('starts at 0.5 s, doubles, and stops growing at 8 s', () => {
    const noJitter = () => 0;
    expect([0, 1, 2, 3, 4, 5, 10].map((retry) => backoffDelayMs(retry, noJitter))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
  });

  it('subtracts up to 25 % jitter so clients do not retry in lockstep', () => {
    expect(backoffDelayMs(0, () => 1)).toBe(375);
    expect(backoffDelayMs(0, () => 0.5)).toBe(437.5);
    expect(backoffDelayMs(9, () => 1)).toBe(6_000);
    for (let index = 0; index < 200; index += 1) {
      const delay = backoffDelayMs(2);
      expect(delay).toBeGreaterThanOrEqual(1_500);
      expect(delay).toBeLessThanOrEqual(2_000);
    }
  });
});

describe('server-requested delays', () => {
  const now = Date.parse('2026-11-21T20:00:00Z');

  it('reads retry-after-ms first, then Retry-After seconds, then Retry-After as an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1_500);
    expect(retryAfterMs(headers({ 'retry-after': '9' }), now)).toBe(9_000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after': new Date(now + 12_000).toUTCString() }), now)).toBe(12_000);
  });

  it('treats a date in the past as no wait and ignores unreadable values', () => {
    expect(retryAfterMs(headers({ 'retry-after': new Date(now - 5_000).toUTCString() }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'abc', 'retry-after': '2' }), now)).toBe(2_000);
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('obeys a requested delay up to 60 s, and falls back to backoff when none is readable', () => {
    expect(retryDelayMs(0, headers({ 'retry-after-ms': '120000' }))).toBe(60_000);
    expect(retryDelayMs(0, headers({ 'retry-after': '61' }))).toBe(60_000);
    expect(retryDelayMs(0, headers({ 'retry-after': '20' }))).toBe(20_000);
    expect(retryDelayMs(3, headers({ 'retry-after': 'soon' }), () => 0)).toBe(4_000);
    expect(retryDelayMs(1, undefined, () => 0)).toBe(1_000);
  });
});

import type { EpochMs } from './clock.js';

/** Requests per minute of the named tiers (docs/rate-limits.md). */
const RATE_LIMIT_TIERS = { standard: 100, pro: 1000 } as const;

export type RateLimitSetting = keyof typeof RATE_LIMIT_TIERS | number;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

/** The largest limit: the spec declares `RateLimit-Limit` as an int32. */
const MAX_PER_MINUTE = 2_147_483_647;

function isTier(value: string): value is keyof typeof RATE_LIMIT_TIERS {
  return Object.hasOwn(RATE_LIMIT_TIERS, value);
}

/** Parses the CLI and option form: `standard`, `pro` or a number of requests per minute from 1 to 2147483647. */
export function parseRateLimit(value: string | number): number {
  const perMinute =
    typeof value === 'number'
      ? value
      : isTier(value)
        ? RATE_LIMIT_TIERS[value]
        : /^[1-9][0-9]*$/.test(value)
          ? Number(value)
          : Number.NaN;
  if (Number.isInteger(perMinute) && perMinute > 0 && perMinute <= MAX_PER_MINUTE) return perMinute;
  throw new TypeError(
    `Rate limit must be standard, pro or a whole number of requests per minute from 1 to ${MAX_PER_MINUTE}, got ${String(value)}`,
  );
}

/** A fixed one-minute window per API key, measured on the key's test clock. */
export class RateLimiter {
  readonly #windows = new Map<string, { startedAt: EpochMs; count: number }>();

  constructor(readonly perMinute: number) {}

  /** `keyId` names the key (its id, never the secret). */
  take(keyId: string, now: EpochMs): RateLimitDecision {
    let window = this.#windows.get(keyId);
    if (!window || now - window.startedAt >= WINDOW_MS) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(keyId, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
    if (window.count >= this.perMinute) {
      return { allowed: false, limit: this.perMinute, remaining: 0, resetSeconds };
    }
    window.count++;
    return { allowed: true, limit: this.perMinute, remaining: this.perMinute - window.count, resetSeconds };
  }
}

/** Statuses worth another attempt: timeouts, conflicts (e.g. a concurrent idempotent request), rate limits, server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501);
}

const INITIAL_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A server may ask for more, but a call never sleeps longer than this between attempts. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Exponential backoff (0.5 s doubling, capped at 8 s) minus up to 25 % jitter so clients do not retry in lockstep. */
export function backoffDelayMs(retryIndex: number, random: () => number = Math.random): number {
  return Math.min(INITIAL_DELAY_MS * 2 ** retryIndex, MAX_BACKOFF_MS) * (1 - random() * 0.25);
}

/** `retry-after-ms`, then `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && milliseconds.trim() !== '') {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after')?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryDelayMs(retryIndex: number, headers: Headers | undefined, random?: () => number): number {
  const requested = headers === undefined ? undefined : retryAfterMs(headers);
  return requested === undefined ? backoffDelayMs(retryIndex, random) : Math.min(requested, MAX_RETRY_AFTER_MS);
}

import type { RateLimiter } from '../core/rate-limiter.js';
import type { Tenant } from '../core/tenant.js';
import { HttpError } from '../core/errors.js';

/**
 * Counts the request against its key's minute. Adds the RateLimit headers to `headers` (every answer carries
 * them while a limit is on) and throws 429 `rate_limited` with `Retry-After` once the minute is used up.
 */
export function applyRateLimit(limiter: RateLimiter, keyId: string, tenant: Tenant, headers: [string, string][]): void {
  const decision = limiter.take(keyId, tenant.now());
  headers.push(
    ['RateLimit-Limit', String(decision.limit)],
    ['RateLimit-Remaining', String(decision.remaining)],
    ['RateLimit-Reset', String(decision.resetSeconds)],
  );
  if (!decision.allowed) {
    throw new HttpError(
      429,
      'rate_limited',
      `Rate limit of ${decision.limit} requests per minute exceeded.`,
      { limit: decision.limit },
      { 'Retry-After': String(decision.resetSeconds) },
    );
  }
}

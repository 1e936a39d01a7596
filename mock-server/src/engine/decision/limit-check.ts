import type { CalendarSums } from '../aggregates/calendar-sums.js';
import type { EpochMs, LimitSet, LimitWindow } from '../types.js';

/** A cap an authorization would break. `current` is the spend in the window including this authorization. */
export interface LimitBreach {
  scope: 'card' | 'agent';
  window: LimitWindow;
  limit: number;
  current: number;
}

const ORDER: readonly LimitWindow[] = ['perAuth', 'perDay', 'perWeek', 'perMonth', 'allTime'];

/** Every cap of `limits` that `amount` would break, given the running sums (per-authorization first). */
export function findBreaches(
  scope: LimitBreach['scope'],
  limits: LimitSet,
  sums: CalendarSums | undefined,
  amount: number,
  now: EpochMs,
): LimitBreach[] {
  const breaches: LimitBreach[] = [];
  for (const window of ORDER) {
    const limit = limits[window];
    if (limit === undefined) continue;
    const current = window === 'perAuth' ? amount : (sums?.spent(window, now) ?? 0) + amount;
    if (current > limit) breaches.push({ scope, window, limit, current });
  }
  return breaches;
}

const WINDOW_TEXT: Record<LimitWindow, string> = {
  perAuth: 'per-authorization',
  perDay: 'daily',
  perWeek: 'weekly',
  perMonth: 'monthly',
  allTime: 'total',
};

export function breachMessage(breach: LimitBreach, amount: number): string {
  const owner = breach.scope === 'card' ? "card's" : "agent's";
  if (breach.window === 'perAuth') {
    return `The amount ${amount} exceeds the ${owner} per-authorization limit of ${breach.limit}.`;
  }
  return `The amount ${amount} would bring the ${owner} ${WINDOW_TEXT[breach.window]} spend to ${breach.current}, above its limit of ${breach.limit}.`;
}

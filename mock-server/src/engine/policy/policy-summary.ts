import type { Tenant } from '../../core/tenant.js';
import { loadCardScope } from '../card-scope.js';
import { engineState } from '../engine-state.js';
import { expiresAtOf } from '../ttl.js';
import { cardLimitSet } from './card-policy.js';

const MINUTE_MS = 60_000;

/**
 * `GET /cards/{cardId}/policy` (docs/policy.md): the merged policy, TTL and cooldown state, and the card's caps with
 * what was spent today and this month and what remains, with timestamps as epoch ms. The variants render it (with
 * the card's status as each names it).
 */
export function cardPolicySummary(tenant: Tenant, cardId: string) {
  const { card, policy } = loadCardScope(tenant, cardId);
  const now = tenant.now();
  const state = engineState(tenant).cardState(card.id);
  const expiresAt = expiresAtOf(card, policy);
  const cooldownMinutes = policy.cooldownMinutes ?? null;
  const lastSpendAt = state.lastSpendAt;
  const cooldownEndsAt = cooldownMinutes && lastSpendAt !== null ? lastSpendAt + cooldownMinutes * MINUTE_MS : null;
  const limits = cardLimitSet(policy, card);
  const spentDay = state.sums.spent('perDay', now);
  const spentMonth = state.sums.spent('perMonth', now);
  const remaining = (limit: number | undefined, spent: number) => (limit === undefined ? null : Math.max(0, limit - spent));
  return {
    card,
    summary: {
      cardId: card.id,
      usage: card.usage,
      ttl: {
        minutes: policy.ttlMinutes ?? null,
        days: policy.ttlDays ?? null,
        expiresAt,
        isExpired: expiresAt !== null && now >= expiresAt,
      },
      cooldown: {
        minutes: cooldownMinutes,
        lastSpendAt,
        cooldownEndsAt,
        isInCooldown: cooldownEndsAt !== null && now < cooldownEndsAt,
      },
      limits: {
        perAuth: limits.perAuth ?? null,
        perDay: limits.perDay ?? null,
        perMonth: limits.perMonth ?? null,
        spentDay,
        spentMonth,
        remainingDay: remaining(limits.perDay, spentDay),
        remainingMonth: remaining(limits.perMonth, spentMonth),
      },
      policy,
    },
  };
}

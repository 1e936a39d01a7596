import { toIsoOrNull } from '../../core/clock.js';
import type { ApiSchemas } from '../../core/stored.js';
import type { cardPolicySummary } from '../../engine/policy/policy-summary.js';

/** `GET /cards/{cardId}/policy` with timestamps in ISO 8601 and the card's status as the variant names it. */
export function renderPolicySummary(
  { summary }: ReturnType<typeof cardPolicySummary>,
  status: ApiSchemas['CardPolicySummary']['status'],
): ApiSchemas['CardPolicySummary'] {
  return {
    ...summary,
    ttl: { ...summary.ttl, expiresAt: toIsoOrNull(summary.ttl.expiresAt) },
    cooldown: {
      ...summary.cooldown,
      lastSpendAt: toIsoOrNull(summary.cooldown.lastSpendAt),
      cooldownEndsAt: toIsoOrNull(summary.cooldown.cooldownEndsAt),
    },
    status,
  };
}

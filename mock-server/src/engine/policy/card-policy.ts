import type { AgentRecord, CardRecord, CustomerRecord, LimitSet, Policy, PolicyLimits, SpendingLimit } from '../types.js';

/** What the merge reads of each record: their policies, and the card's own limit. */
type PolicyHolder = Pick<CustomerRecord | AgentRecord, 'policy'>;
type CardLimits = Pick<CardRecord, 'policy' | 'limits'>;
import { mergePolicies } from './merge-policies.js';

/** The policy layer a customer-variant card's SpendingLimit adds (per-authorization, daily or monthly). */
function cardFieldsAsPolicy(card: CardLimits): Policy {
  const limits = spendingLimitAsPolicyLimits(card.limits);
  return limits ? { limits } : {};
}

/** The effective policy of a card: customer, then agent, then the card's policy and fields. */
export function effectivePolicy(customer: PolicyHolder | undefined, agent: PolicyHolder | undefined, card: CardLimits): Policy {
  return mergePolicies(customer?.policy, agent?.policy, card.policy, cardFieldsAsPolicy(card));
}

/** A SpendingLimit's per-auth, daily and monthly intervals expressed as Policy limits (others have no field there). */
function spendingLimitAsPolicyLimits(limit: SpendingLimit | null): PolicyLimits | undefined {
  if (!limit) return undefined;
  switch (limit.interval) {
    case 'per_authorization':
      return { perAuth: limit.amount };
    case 'daily':
      return { perDay: limit.amount };
    case 'monthly':
      return { perMonth: limit.amount };
    default:
      return undefined;
  }
}

/**
 * Every cap that applies to one card's own spend: the merged policy limits plus the weekly or all-time
 * SpendingLimit of a customer-variant card. A SpendingLimit without an interval is a total (all-time) budget.
 */
export function cardLimitSet(policy: Policy, card: CardLimits): LimitSet {
  const set: LimitSet = {};
  if (policy.limits?.perAuth !== undefined) set.perAuth = policy.limits.perAuth;
  if (policy.limits?.perDay !== undefined) set.perDay = policy.limits.perDay;
  if (policy.limits?.perMonth !== undefined) set.perMonth = policy.limits.perMonth;
  const limit = card.limits;
  if (limit && (limit.interval === 'weekly' || limit.interval === 'all_time' || limit.interval == null)) {
    const window = limit.interval === 'weekly' ? 'perWeek' : 'allTime';
    set[window] = Math.min(set[window] ?? Infinity, limit.amount);
  }
  return set;
}

/**
 * Caps on an agent's total spend across its cards: its SpendingLimit (`limits`) and its own policy limits.
 * These are the limits behind `agent.limit_approaching` and `agent.limit_exceeded`.
 */
export function agentLimitSet(agent: Pick<AgentRecord, 'policy' | 'limits'>): LimitSet {
  const set: LimitSet = {};
  const take = (window: keyof LimitSet, value: number | undefined) => {
    if (value === undefined) return;
    set[window] = Math.min(set[window] ?? Infinity, value);
  };
  take('perAuth', agent.policy.limits?.perAuth);
  take('perDay', agent.policy.limits?.perDay);
  take('perMonth', agent.policy.limits?.perMonth);
  const limit = agent.limits;
  if (limit) {
    const byInterval = {
      per_authorization: 'perAuth',
      daily: 'perDay',
      weekly: 'perWeek',
      monthly: 'perMonth',
      all_time: 'allTime',
    } as const;
    take(byInterval[limit.interval ?? 'all_time'], limit.amount);
  }
  return set;
}

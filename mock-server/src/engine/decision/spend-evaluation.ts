import { balanceOf } from '../../domain/balances.js';
import { invalidRequest } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { loadCardScope } from '../card-scope.js';
import { engineState } from '../engine-state.js';
import { decide } from './decide.js';
import { expireCardIfDue } from '../ttl.js';
import type { SpendingLimit } from '../types.js';

export interface SpendEvaluateRequest {
  amount: number;
  cardId: string;
  currency?: string | undefined;
  customerId?: string | undefined;
  agentId?: string | undefined;
  merchant?: { name?: string | undefined; mcc?: string | undefined } | undefined;
}

/**
 * `POST /spend/evaluate` (docs/policy.md#post-spendevaluate): the authorization's decision without any state change. A merchant
 * without a name is evaluated by category only.
 */
export function evaluateSpendRequest(tenant: Tenant, request: SpendEvaluateRequest) {
  // An expiry that is due is applied first, so the evaluation sees the card as an authorization would.
  const scope = loadCardScope(tenant, request.cardId);
  expireCardIfDue(tenant, scope);
  const { card, agent } = scope;
  if (request.customerId !== undefined && request.customerId !== card.customerId) {
    throw invalidRequest('/body/customerId', 'does not own the card', { cardId: card.id });
  }
  if (request.agentId !== undefined && request.agentId !== card.agentId) {
    throw invalidRequest('/body/agentId', 'is not the agent of the card', { cardId: card.id });
  }
  const decision = decide(tenant, scope, request.amount, request.merchant);
  const state = engineState(tenant);
  const cardState = state.cardState(card.id);
  const now = tenant.now();
  const balance = balanceOf(tenant, card.customerId);
  const cardLimit: SpendingLimit | null = card.limits
    ? { amount: card.limits.amount, currency: card.limits.currency, interval: card.limits.interval ?? null }
    : null;
  const agentLimit: SpendingLimit | null = agent?.limits
    ? { amount: agent.limits.amount, currency: agent.limits.currency, interval: agent.limits.interval ?? null }
    : null;
  return {
    decision: decision.decision,
    reasons: decision.reasons,
    flags: decision.flags,
    context: {
      customerId: card.customerId,
      agentId: card.agentId,
      cardId: card.id,
      amount: request.amount,
      currency: (request.currency ?? balance.currency).toLowerCase(),
      available: balance.available,
      agentLimit,
      cardLimit,
      spendStats: {
        totalDay: cardState.sums.spent('perDay', now),
        totalMonth: cardState.sums.spent('perMonth', now),
        lastSpendAt: cardState.lastSpendAt,
      },
      policy: scope.policy,
    },
  };
}

import { balanceOf } from '../../domain/balances.js';
import { invalidRequest } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { type CardScope, loadCardScope } from '../card-scope.js';
import { gateMandate, type MandateInput } from '../mandates/mandate-gate.js';
import { engineState } from '../engine-state.js';
import { decide } from './decide.js';
import type { MandateOutcome } from './evaluate-spend.js';
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
 * What the gate makes of a mandate presented with an evaluation, its use never recorded, so that the presentation
 * can still pay (docs/mandates.md#evaluating-a-spend).
 */
function mandateOutcome(tenant: Tenant, scope: CardScope, input: MandateInput, request: SpendEvaluateRequest, currency: string) {
  if (input === undefined) return { refusal: null, access: undefined, outcome: undefined };
  // Without the merchant's name the presentation was refused already (the closed mandate's payee needs it).
  const merchant = { ...request.merchant, name: request.merchant?.name ?? '' };
  const spend = { amount: request.amount, currency, merchant, cardId: scope.card.id, now: tenant.now() };
  const gate = gateMandate(tenant, scope, input, spend);
  const outcome: MandateOutcome = gate.declinedBy ? 'refused' : 'verified';
  return { refusal: gate.declinedBy, access: gate.access ?? undefined, outcome };
}

/**
 * `POST /spend/evaluate` (docs/policy.md#post-spendevaluate): the authorization's decision without any state change. A merchant
 * without a name is evaluated by category only. An AP2 mandate, verified before, is judged as the authorization
 * would judge it, but not used: its nonce can still pay.
 */
export function evaluateSpendRequest(tenant: Tenant, request: SpendEvaluateRequest, mandateInput?: MandateInput) {
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
  const balance = balanceOf(tenant, card.customerId);
  const currency = (request.currency ?? balance.currency).toLowerCase();
  const mandate = mandateOutcome(tenant, scope, mandateInput, request, currency);
  const decision = decide(tenant, scope, request.amount, request.merchant, {
    access: mandate.access,
    mandate: mandate.outcome,
  });
  // A refused mandate declines an authorization before any rule is read: its reason comes first.
  const reasons = mandate.refusal
    ? [{ code: mandate.refusal.reason, message: mandate.refusal.message }, ...decision.reasons]
    : decision.reasons;
  const state = engineState(tenant);
  const cardState = state.cardState(card.id);
  const now = tenant.now();
  const cardLimit: SpendingLimit | null = card.limits
    ? { amount: card.limits.amount, currency: card.limits.currency, interval: card.limits.interval ?? null }
    : null;
  const agentLimit: SpendingLimit | null = agent?.limits
    ? { amount: agent.limits.amount, currency: agent.limits.currency, interval: agent.limits.interval ?? null }
    : null;
  return {
    decision: mandate.refusal ? 'decline' : decision.decision,
    reasons,
    flags: decision.flags,
    context: {
      customerId: card.customerId,
      agentId: card.agentId,
      cardId: card.id,
      amount: request.amount,
      currency,
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

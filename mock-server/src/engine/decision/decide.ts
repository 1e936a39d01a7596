import { balanceOf } from '../../domain/balances.js';
import type { CardScope } from '../card-scope.js';
import type { Tenant } from '../../core/tenant.js';
import { engineState } from '../engine-state.js';
import { isUsable } from '../intents/intent-record.js';
import type { Merchant } from '../types.js';
import { evaluateSpend, type Decision } from './evaluate-spend.js';

/** Collects the same inputs `evaluateSpend` reads, for an authorization or an evaluation now. */
export function decide(tenant: Tenant, scope: CardScope, amount: number, merchant: Partial<Merchant> | undefined): Decision {
  const state = engineState(tenant);
  const now = tenant.now();
  return evaluateSpend({
    now,
    card: scope.card,
    agent: scope.agent,
    customer: scope.customer,
    policy: scope.policy,
    cardState: state.cardState(scope.card.id),
    agentState: scope.card.agentId ? state.agentState(scope.card.agentId) : undefined,
    available: balanceOf(tenant, scope.card.customerId).available,
    risk: state.risk,
    amount,
    merchant,
    lastAccess: state.lastAccess.get(scope.card.id) ?? null,
    usableIntents: [...state.openIntents(scope.card.id).values()].filter((intent) => isUsable(intent, now)),
  });
}

import { suspendAgent } from '../../domain/agents.js';
import { freezeCard } from '../../domain/cards.js';
import type { Tenant } from '../../core/tenant.js';
import type { CardScope } from '../card-scope.js';
import type { LimitBreach } from '../decision/limit-check.js';
import type { EngineTenantState } from '../engine-state.js';
import type { agentLimitSet } from '../policy/card-policy.js';
import type { LimitWindow } from '../types.js';

/** `agent.limit_approaching` fires when an agent's spend crosses this share of a limit. */
const APPROACHING_SHARE = 0.8;

const FREQUENCY: Partial<Record<LimitWindow, 'perAuth' | 'perDay' | 'perMonth'>> = {
  perAuth: 'perAuth',
  perDay: 'perDay',
  perMonth: 'perMonth',
};

/** An agent cap broken: `agent.limit_exceeded`, the triggering card frozen, then the agent suspended. */
export function applyAgentBreach(tenant: Tenant, scope: CardScope, breach: LimitBreach): void {
  const agent = scope.agent;
  if (!agent) return;
  const frequency = FREQUENCY[breach.window];
  // Weekly and all-time limits have no LimitFrequency value; the suspension still happens, without this event.
  if (frequency) {
    tenant.emit('agent.limit_exceeded', {
      agentId: agent.id,
      userId: scope.card.customerId,
      spendingLimit: breach.limit,
      currentSpend: breach.current,
      frequency,
      action: 'suspended',
    });
  }
  if (scope.card.status === 'active') freezeCard(tenant, scope.card, 'spending_limit_exceeded', 'system');
  if (agent.status !== 'suspended') suspendAgent(tenant, agent, 'spending_limit_exceeded', 'system');
}

/** The daily and monthly agent limits that `amount` makes the agent's spend cross 80 % of: `agent.limit_approaching`. */
export function limitsApproached(
  state: EngineTenantState,
  agentId: string,
  limits: ReturnType<typeof agentLimitSet>,
  amount: number,
  now: number,
) {
  const sums = state.agentState(agentId).sums;
  const warnings: { spendingLimit: number; currentSpend: number; percentUsed: number; frequency: 'perDay' | 'perMonth' }[] = [];
  for (const window of ['perDay', 'perMonth'] as const) {
    const limit = limits[window];
    if (limit === undefined || limit <= 0) continue;
    const before = sums.spent(window, now);
    const after = before + amount;
    if (before < APPROACHING_SHARE * limit && after >= APPROACHING_SHARE * limit) {
      warnings.push({
        spendingLimit: limit,
        currentSpend: after,
        percentUsed: Math.round((after / limit) * 10000) / 100,
        frequency: window,
      });
    }
  }
  return warnings;
}

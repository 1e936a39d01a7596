import { anomalyEventType, autoActionReason, type Anomaly, type RiskAction } from '../risk/anomaly.js';
import { agents, markAgentSuspended } from '../../domain/agents.js';
import { cards, freezeCard, markCardFrozen } from '../../domain/cards.js';
import type { Tenant } from '../../core/tenant.js';
import type { CardRecord } from '../types.js';

/** Emits one `anomaly.*` event per anomaly, with the fields of section 6.2. */
export function emitAnomalies(tenant: Tenant, card: CardRecord, transactionId: string, anomalies: readonly Anomaly[], dryRun: boolean): void {
  for (const anomaly of anomalies) {
    const data: Record<string, unknown> = { transactionId, cardId: card.id, agentId: card.agentId };
    if (anomaly.intentId !== undefined) data.intentId = anomaly.intentId;
    data.action = anomaly.action;
    data.dryRun = dryRun;
    data.details = anomaly.details;
    tenant.emit(anomalyEventType(anomaly.type), data);
  }
}

/**
 * Carries out (or, in dry run, only reports) the risk engine's action: `freeze_card` freezes the card
 * (`card.auto_frozen`); `suspend_agent` suspends its agent and freezes every active card of it
 * (`agent.auto_suspended` with the count, then `card.frozen` reason `agent_suspended` per card).
 */
export function applyRiskAction(tenant: Tenant, card: CardRecord, transactionId: string, action: RiskAction, dryRun: boolean): void {
  const reason = autoActionReason(action.anomaly.type);
  const anomalyType = action.anomaly.type;
  if (action.action === 'suspend_agent' && card.agentId !== null) {
    const agentId = card.agentId;
    const active = [...cards.of(tenant).values({ agentId, status: 'active' })];
    tenant.emit('agent.auto_suspended', {
      agentId,
      userId: card.customerId,
      transactionId,
      reason,
      anomalyType,
      dryRun,
      cardsFrozen: dryRun ? 0 : active.length,
    });
    if (dryRun) return;
    const agent = agents.of(tenant).get(agentId);
    if (agent) markAgentSuspended(tenant, agent);
    for (const frozen of active) freezeCard(tenant, frozen, 'agent_suspended', 'system');
    return;
  }
  tenant.emit('card.auto_frozen', { cardId: card.id, agentId: card.agentId, transactionId, reason, anomalyType, dryRun });
  if (!dryRun && card.status === 'active') markCardFrozen(tenant, card);
}

import type { EventData } from '../../core/event-types.js';
import {
  anomalyEventType,
  autoActionReason,
  type Anomaly,
  type AnomalyEventType,
  type AnomalyOf,
  type RiskAction,
} from '../risk/anomaly.js';
import { agents, markAgentSuspended } from '../../domain/agents.js';
import { cards, freezeCard, markCardFrozen } from '../../domain/cards.js';
import type { Tenant } from '../../core/tenant.js';
import type { CardRecord } from '../types.js';

/** Emits one `anomaly.*` event per anomaly. */
export function emitAnomalies(
  tenant: Tenant,
  card: CardRecord,
  transactionId: string,
  anomalies: readonly Anomaly[],
  dryRun: boolean,
): void {
  for (const anomaly of anomalies) emitAnomaly(tenant, card, transactionId, anomaly, dryRun);
}

function emitAnomaly<Type extends Anomaly['type']>(
  tenant: Tenant,
  card: CardRecord,
  transactionId: string,
  anomaly: AnomalyOf<Type>,
  dryRun: boolean,
): void {
  const data = {
    transactionId,
    cardId: card.id,
    agentId: card.agentId,
    ...(anomaly.intentId === undefined ? {} : { intentId: anomaly.intentId }),
    action: anomaly.action,
    dryRun,
    details: anomaly.details,
  };
  // Every anomaly event has this data with its own `details` (the spec's Anomaly*EventData); TypeScript cannot
  // relate a generic type's template-literal event name to its data on its own.
  tenant.emit(anomalyEventType(anomaly.type), data as EventData<AnomalyEventType<Type>>);
}

/**
 * Carries out (or, in dry run, only reports) the risk engine's action: `freeze_card` freezes the card
 * (`card.auto_frozen`); `suspend_agent` suspends its agent and freezes every active card of it
 * (`agent.auto_suspended` with the count, then `card.frozen` reason `agent_suspended` per card).
 */
export function applyRiskAction(
  tenant: Tenant,
  card: CardRecord,
  transactionId: string,
  action: RiskAction,
  dryRun: boolean,
): void {
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

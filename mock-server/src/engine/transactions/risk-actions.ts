import { anomalyEventType, autoActionReason, type Anomaly, type RiskAction } from '../risk/anomaly.js';
import type { EngineContext } from '../engine-context.js';
import type { EngineCard } from '../types.js';

/** Emits one `anomaly.*` event per anomaly, with the fields of section 6.2. */
export function emitAnomalies(ctx: EngineContext, card: EngineCard, transactionId: string, anomalies: readonly Anomaly[], dryRun: boolean): void {
  for (const anomaly of anomalies) {
    const data: Record<string, unknown> = { transactionId, cardId: card.id, agentId: card.agentId };
    if (anomaly.intentId !== undefined) data.intentId = anomaly.intentId;
    data.action = anomaly.action;
    data.dryRun = dryRun;
    data.details = anomaly.details;
    ctx.tenant.emit(anomalyEventType(anomaly.type), data);
  }
}

/**
 * Carries out (or, in dry run, only reports) the risk engine's action: `freeze_card` freezes the card
 * (`card.auto_frozen`); `suspend_agent` suspends its agent and freezes every active card of it
 * (`agent.auto_suspended` with the count, then `card.frozen` reason `agent_suspended` per card).
 */
export function applyRiskAction(ctx: EngineContext, card: EngineCard, transactionId: string, action: RiskAction, dryRun: boolean): void {
  const reason = autoActionReason(action.anomaly.type);
  const anomalyType = action.anomaly.type;
  if (action.action === 'suspend_agent' && card.agentId !== null) {
    const agentId = card.agentId;
    const cards = ctx.platform.activeCardIds(ctx.tenant, agentId);
    ctx.tenant.emit('agent.auto_suspended', {
      agentId,
      userId: card.customerId,
      transactionId,
      reason,
      anomalyType,
      dryRun,
      cardsFrozen: dryRun ? 0 : cards.length,
    });
    if (dryRun) return;
    ctx.platform.setAgentSuspended(ctx.tenant, agentId);
    for (const cardId of cards) ctx.platform.freezeCard(ctx.tenant, cardId, 'agent_suspended');
    return;
  }
  ctx.tenant.emit('card.auto_frozen', { cardId: card.id, agentId: card.agentId, transactionId, reason, anomalyType, dryRun });
  if (!dryRun && card.status === 'active') ctx.platform.setCardStatus(ctx.tenant, card.id, 'frozen');
}

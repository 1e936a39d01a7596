import type { EventData } from '../../core/event-types.js';
import type { AnomalyAction, AnomalyType } from '../types.js';

/** The event an anomaly of this type is reported with. */
export type AnomalyEventType<Type extends AnomalyType = AnomalyType> = `anomaly.${Type}`;

/** One detector firing on one authorization attempt, of one type. `details` is that event's `details` object. */
export interface AnomalyOf<Type extends AnomalyType> {
  type: Type;
  action: AnomalyAction;
  details: EventData<AnomalyEventType<Type>>['details'];
  /** Only for `intent_mismatch`: the intent the authorization was compared with. */
  intentId?: string | undefined;
}

/** An anomaly of any type, discriminated by `type` (which types its `details`). */
export type Anomaly = { [Type in AnomalyType]: AnomalyOf<Type> }[AnomalyType];

/** The action the risk engine takes for an attempt: the strongest of its anomalies' actions. */
export interface RiskAction {
  action: 'freeze_card' | 'suspend_agent';
  anomaly: Anomaly;
}

const STRENGTH: Record<AnomalyAction, number> = { alert: 0, freeze_card: 1, suspend_agent: 2 };

/**
 * The strongest action among the anomalies, or null when all only alert. `suspend_agent` on a card without an
 * agent falls back to `freeze_card`.
 */
export function strongestAction(anomalies: readonly Anomaly[], hasAgent: boolean): RiskAction | null {
  let best: RiskAction | null = null;
  for (const anomaly of anomalies) {
    const action = anomaly.action === 'suspend_agent' && !hasAgent ? 'freeze_card' : anomaly.action;
    if (action === 'alert') continue;
    if (!best || STRENGTH[action] > STRENGTH[best.action]) best = { action, anomaly };
  }
  return best;
}

export function anomalyEventType<Type extends AnomalyType>(type: Type): AnomalyEventType<Type> {
  return `anomaly.${type}`;
}

/** The `reason` of `card.auto_frozen` and `agent.auto_suspended` for an anomaly type. */
export function autoActionReason<Type extends AnomalyType>(type: Type): `anomaly_${Type}` {
  return `anomaly_${type}`;
}

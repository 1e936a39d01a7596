import type { AnomalyAction, AnomalyType } from '../types.js';

/** One detector firing on one authorization attempt. `details` is the event's `details` object (section 6.2). */
export interface Anomaly {
  type: AnomalyType;
  action: AnomalyAction;
  details: Record<string, unknown>;
  /** Only for `intent_mismatch`: the intent the authorization was compared with. */
  intentId?: string | undefined;
}

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

export function anomalyEventType(type: AnomalyType): string {
  return `anomaly.${type}`;
}

export function autoActionReason(type: AnomalyType): string {
  return `anomaly_${type}`;
}

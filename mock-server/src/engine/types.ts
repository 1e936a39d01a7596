import type { EpochMs } from '../core/clock.js';
import type { Policy, SpendingLimit } from '../domain/types.js';

/**
 * The engine's view of the objects it reasons about. Policy, its limits and SpendingLimit are the platform's
 * shapes (spec/common/schemas.yaml); timestamps inside the engine are epoch milliseconds, rendered at the HTTP edge.
 */
export type { EpochMs } from '../core/clock.js';
export type { Policy, PolicyLimits, SpendingLimit } from '../domain/types.js';

export interface Merchant {
  name: string;
  mcc?: string | undefined;
}

/** The windows a cap can apply to. `perWeek` and `allTime` come only from a SpendingLimit's interval. */
export type LimitWindow = 'perAuth' | 'perDay' | 'perWeek' | 'perMonth' | 'allTime';

/** Caps by window, in cents; an absent cap is no cap. */
export type LimitSet = Partial<Record<LimitWindow, number>>;

export type CardStatus = 'notActivated' | 'active' | 'frozen' | 'closed';
export type AgentStatus = 'active' | 'paused' | 'disabled' | 'suspended';

/** What the engine needs to know about a card, whichever variant created it. */
export interface EngineCard {
  id: string;
  customerId: string;
  agentId: string | null;
  usage: 'single' | 'multi';
  status: CardStatus;
  /**
   * The card's own policy. The user-variant card's `limits`, `ttlDays`, `requireApproval` and `autoApproveBelow`
   * are stored here too (that is how the platform keeps them).
   */
  policy: Policy;
  /** The customer-variant card limit (section 2.4). */
  spendingLimit: SpendingLimit | null;
  merchantHint: string | null;
  merchantLock: string | null;
  pan: string;
  cvc: string;
  last4: string;
  expMonth: string;
  expYear: string;
  firstSpendAt: EpochMs | null;
  createdAt: EpochMs;
}

export interface EngineAgent {
  id: string;
  customerId: string;
  status: AgentStatus;
  policy: Policy;
  limits: SpendingLimit | null;
}

export interface EngineCustomer {
  id: string;
  email: string;
  policy: Policy;
}

export type AnomalyType =
  | 'duplicate'
  | 'velocity'
  | 'spend_spike'
  | 'unattested'
  | 'intent_mismatch'
  | 'cooldown'
  | 'merchant_drift';

export type AnomalyAction = 'alert' | 'freeze_card' | 'suspend_agent';

export type DeclineReason =
  | 'insufficient_funds'
  | 'card_frozen'
  | 'card_closed'
  | 'spending_limit_exceeded'
  | 'blocked_merchant'
  | 'blocked_mcc'
  | 'fraud_suspected';

/** Codes that make an evaluation `review` rather than `decline`. */
export type ReviewReason = 'intent_required' | 'approval_required';

export interface SpendReason {
  code: DeclineReason | ReviewReason;
  message: string;
}

/** Emits one event of the event-catalog type `type` (the platform's event log renders both envelopes). */
export type Emit = (type: string, data: Record<string, unknown>) => void;

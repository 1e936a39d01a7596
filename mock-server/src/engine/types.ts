import type { EpochMs } from '../core/clock.js';
import type { ApiSchemas } from '../core/stored.js';
import type { AgentStatus } from '../domain/agents.js';
import type { CardStatus } from '../domain/cards.js';
import type { Policy, SpendingLimit } from '../domain/types.js';

/**
 * The engine's view of the objects it reasons about. Policy, its limits and SpendingLimit are the platform's
 * shapes (spec/common/schemas.yaml); timestamps inside the engine are epoch milliseconds, rendered at the HTTP edge.
 */
export type { EpochMs } from '../core/clock.js';
export type { Policy, PolicyLimits, SpendingLimit } from '../domain/types.js';

export type Merchant = ApiSchemas['Merchant'];

/** The windows a cap can apply to. `perWeek` and `allTime` come only from a SpendingLimit's interval. */
export type LimitWindow = 'perAuth' | 'perDay' | 'perWeek' | 'perMonth' | 'allTime';

/** Caps by window, in cents; an absent cap is no cap. */
export type LimitSet = Partial<Record<LimitWindow, number>>;

export type { CardStatus } from '../domain/cards.js';
export type { AgentStatus } from '../domain/agents.js';

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

export type AnomalyType = ApiSchemas['AnomalyType'];

export type AnomalyAction = ApiSchemas['AnomalyAction'];

export type DeclineReason = ApiSchemas['DeclineReason'];

/** Codes that make an evaluation `review` rather than `decline`. */
export type ReviewReason = 'intent_required' | 'approval_required';

export interface SpendReason {
  code: DeclineReason | ReviewReason;
  message: string;
}

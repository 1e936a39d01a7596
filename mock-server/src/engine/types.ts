import type { ApiSchemas } from '../core/stored.js';

/**
 * Types the engine works with. Policy, its limits and SpendingLimit are the platform's shapes (from the spec);
 * timestamps inside the engine are epoch milliseconds, rendered by the variants at the edge.
 */
export type { EpochMs } from '../core/clock.js';
export type { Policy, PolicyLimits, SpendingLimit } from '../domain/types.js';

export type Merchant = ApiSchemas['Merchant'];

/** The windows a cap can apply to. `perWeek` and `allTime` come only from a SpendingLimit's interval. */
export type LimitWindow = 'perAuth' | 'perDay' | 'perWeek' | 'perMonth' | 'allTime';

/** Caps by window, in cents; an absent cap is no cap. */
export type LimitSet = Partial<Record<LimitWindow, number>>;

/**
 * The platform's records the engine reasons about. It reads them directly and changes them only through the
 * platform's transitions (src/domain), so a card frozen by a rule sends the same `card.frozen` as one frozen
 * through the API.
 */
export type { CardRecord } from '../domain/cards.js';
export type { AgentRecord } from '../domain/agents.js';
export type { CustomerRecord } from '../domain/customers.js';

export type AnomalyType = ApiSchemas['AnomalyType'];

export type AnomalyAction = ApiSchemas['AnomalyAction'];

export type DeclineReason = ApiSchemas['DeclineReason'];

/** Codes that make an evaluation `review` rather than `decline`. */
type ReviewReason = 'intent_required' | 'approval_required';

export interface SpendReason {
  code: DeclineReason | ReviewReason;
  message: string;
}

import type { ApiSchemas, Stored } from '../../core/stored.js';
import type { EpochMs } from '../types.js';

/** The tolerance an intent was created with, its defaults filled in. */
export type IntentTolerance = Required<ApiSchemas['IntentTolerance']>;

/** An intent (`Intent`) as the engine stores it, with its customer; timestamps in epoch ms. */
export type IntentRecord = Omit<Stored<ApiSchemas['Intent']>, 'tolerance'> & {
  customerId: string;
  tolerance: IntentTolerance;
};

/** Default matching tolerance (docs/intents.md#matching): 10 percent or 500 cents, whichever is larger. */
export const DEFAULT_TOLERANCE: IntentTolerance = { percent: 10, amount: 500 };

export const DEFAULT_INTENT_TTL_MINUTES = 60;

/** A `pending` intent before its expiry: one an authorization can match and credentials can be retrieved for. */
export function isUsable(intent: IntentRecord, now: EpochMs): boolean {
  return intent.status === 'pending' && now < intent.expiresAt;
}

/** A `pending_approval` intent before its expiry: usable once approved. */
export function isAwaitingApproval(intent: IntentRecord, now: EpochMs): boolean {
  return intent.status === 'pending_approval' && now < intent.expiresAt;
}

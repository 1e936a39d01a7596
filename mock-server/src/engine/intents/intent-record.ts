import type { EpochMs } from '../types.js';

export type IntentStatus = 'pending_approval' | 'pending' | 'rejected' | 'matched' | 'mismatched' | 'expired';

export interface IntentTolerance {
  percent: number;
  amount: number;
}

/** An intent as the engine stores it; timestamps in epoch ms, rendered to ISO 8601 at the HTTP edge. */
export interface IntentRecord {
  id: string;
  customerIntentId: string | null;
  cardId: string;
  agentId: string | null;
  customerId: string;
  summary: string;
  expectedAmount: number;
  currency: string;
  expectedMerchant: string | null;
  tolerance: IntentTolerance;
  status: IntentStatus;
  ttlMinutes: number;
  expiresAt: EpochMs;
  createdAt: EpochMs;
  approvedAt: EpochMs | null;
  approvedBy: string | null;
  rejectedAt: EpochMs | null;
  rejectedBy: string | null;
  rejectionReason: string | null;
  matchedTransactionId: string | null;
}

/** Default matching tolerance (api-surface.md): 10 percent or 500 cents, whichever is larger. */
export const DEFAULT_TOLERANCE: IntentTolerance = { percent: 10, amount: 500 };

export const DEFAULT_INTENT_TTL_MINUTES = 60;

/** A `pending` intent before its expiry: one an authorization can match and credentials can be retrieved for. */
export function isUsable(intent: IntentRecord, now: EpochMs): boolean {
  return intent.status === 'pending' && now < intent.expiresAt;
}

import type { IntentMatch } from './intent-matching.js';
import type { IntentRecord } from './intent-record.js';

/** Fields every intent event starts with (spec/common/events.yaml). */
function base(intent: IntentRecord) {
  return {
    intentId: intent.id,
    customerIntentId: intent.customerIntentId,
    cardId: intent.cardId,
    agentId: intent.agentId,
  };
}

/** `intent.created` (general catalog) and `intent.pending_approval` share these fields. */
export function intentCreatedData(intent: IntentRecord): Record<string, unknown> {
  return {
    ...base(intent),
    userId: intent.customerId,
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    expectedMerchant: intent.expectedMerchant,
    expiresAt: intent.expiresAt,
    status: intent.status,
  };
}

export function intentApprovedData(intent: IntentRecord): Record<string, unknown> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    status: intent.status,
    approvedAt: intent.approvedAt,
    approvedBy: intent.approvedBy,
  };
}

export function intentRejectedData(intent: IntentRecord): Record<string, unknown> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    status: intent.status,
    rejectedAt: intent.rejectedAt,
    rejectedBy: intent.rejectedBy,
    rejectionReason: intent.rejectionReason,
  };
}

export function intentExpiredData(intent: IntentRecord, expiredAt: number): Record<string, unknown> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    ttlMinutes: intent.ttlMinutes,
    createdAt: intent.createdAt,
    expiredAt,
  };
}

/** `intent.matched`, or `intent.mismatched` (which adds the tolerance that was applied). */
export function intentMatchData(match: IntentMatch, transactionId: string, amount: number, merchantName: string): Record<string, unknown> {
  const { intent } = match;
  const data: Record<string, unknown> = {
    ...base(intent),
    transactionId,
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    actualAmount: amount,
    expectedMerchant: intent.expectedMerchant,
    actualMerchant: merchantName,
    matchResult: { amountMatch: match.amountMatch, merchantMatch: match.merchantMatch },
  };
  if (!match.matched) data.tolerance = { ...intent.tolerance };
  return data;
}

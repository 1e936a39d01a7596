import type { EventData } from '../../core/event-types.js';
import type { Actor } from '../../domain/types.js';
import type { IntentMatch } from './intent-matching.js';
import type { IntentRecord } from './intent-record.js';

/** Fields every intent event starts with. */
function base(intent: IntentRecord) {
  return {
    intentId: intent.id,
    customerIntentId: intent.customerIntentId,
    cardId: intent.cardId,
    agentId: intent.agentId,
  };
}

/** `intent.created` (general catalog only): the intent as declared, in the status it starts in. */
export function intentCreatedData(intent: IntentRecord, status: 'pending' | 'pending_approval'): EventData<'intent.created'> {
  return {
    ...base(intent),
    userId: intent.customerId,
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    expectedMerchant: intent.expectedMerchant,
    expiresAt: intent.expiresAt,
    status,
  };
}

/**
 * `intent.pending_approval`: the same fields as `intent.created`, for an intent that waits for a person, and the page
 * where they decide (null for an intent stored before intents had one).
 */
export function intentPendingApprovalData(intent: IntentRecord): EventData<'intent.pending_approval'> {
  return {
    ...intentCreatedData(intent, 'pending_approval'),
    status: 'pending_approval',
    approvalUrl: intent.approvalUrl ?? null,
  };
}

export function intentApprovedData(intent: IntentRecord, approvedAt: number, approvedBy: Actor): EventData<'intent.approved'> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    status: 'pending',
    approvedAt,
    approvedBy,
  };
}

export function intentRejectedData(intent: IntentRecord, rejectedAt: number, rejectedBy: Actor): EventData<'intent.rejected'> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    status: 'rejected',
    rejectedAt,
    rejectedBy,
    rejectionReason: intent.rejectionReason,
  };
}

export function intentExpiredData(intent: IntentRecord, expiredAt: number): EventData<'intent.expired'> {
  return {
    ...base(intent),
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    ttlMinutes: intent.ttlMinutes,
    createdAt: intent.createdAt,
    expiredAt,
  };
}

function matchData(match: IntentMatch, transactionId: string, amount: number, merchantName: string) {
  const { intent } = match;
  return {
    ...base(intent),
    transactionId,
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    actualAmount: amount,
    expectedMerchant: intent.expectedMerchant,
    actualMerchant: merchantName,
    matchResult: { amountMatch: match.amountMatch, merchantMatch: match.merchantMatch },
  };
}

/** `intent.matched`: the authorization fit the intent. */
export function intentMatchedData(
  match: IntentMatch,
  transactionId: string,
  amount: number,
  merchantName: string,
): EventData<'intent.matched'> {
  return matchData(match, transactionId, amount, merchantName);
}

/** `intent.mismatched`: as `intent.matched`, with the tolerance that was applied. */
export function intentMismatchedData(
  match: IntentMatch,
  transactionId: string,
  amount: number,
  merchantName: string,
): EventData<'intent.mismatched'> {
  return { ...matchData(match, transactionId, amount, merchantName), tolerance: { ...match.intent.tolerance } };
}

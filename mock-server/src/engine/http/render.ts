import { toIso } from '../../core/clock.js';
import type { IntentRecord } from '../intents/intent-record.js';
import type { KycOutcome } from '../money/kyc.js';
import type { DepositRecord, DisputeRecord, TransactionRecord, WithdrawalRecord } from '../records.js';

/** The engine's records as the spec's response schemas (Transaction, Intent, ...): ISO 8601 timestamps. */
const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

export function renderTransaction(txn: TransactionRecord) {
  return {
    id: txn.id,
    cardId: txn.cardId,
    agentId: txn.agentId,
    customerId: txn.customerId,
    amount: txn.amount,
    authorizedAmount: txn.authorizedAmount,
    reversedAmount: txn.reversedAmount,
    currency: txn.currency,
    merchant: txn.merchant.mcc === undefined ? { name: txn.merchant.name } : { name: txn.merchant.name, mcc: txn.merchant.mcc },
    status: txn.status,
    declinedReason: txn.declinedReason,
    attestationStatus: txn.attestationStatus,
    intentId: txn.intentId,
    challengeId: txn.challengeId,
    createdAt: toIso(txn.createdAt),
    postedAt: iso(txn.postedAt),
    reversedAt: iso(txn.reversedAt),
  };
}

export function renderIntent(intent: IntentRecord) {
  return {
    id: intent.id,
    customerIntentId: intent.customerIntentId,
    cardId: intent.cardId,
    agentId: intent.agentId,
    summary: intent.summary,
    expectedAmount: intent.expectedAmount,
    currency: intent.currency,
    expectedMerchant: intent.expectedMerchant,
    tolerance: intent.tolerance,
    status: intent.status,
    ttlMinutes: intent.ttlMinutes,
    expiresAt: toIso(intent.expiresAt),
    createdAt: toIso(intent.createdAt),
    approvedAt: iso(intent.approvedAt),
    approvedBy: intent.approvedBy,
    rejectedAt: iso(intent.rejectedAt),
    rejectedBy: intent.rejectedBy,
    rejectionReason: intent.rejectionReason,
    matchedTransactionId: intent.matchedTransactionId,
  };
}

export function renderDispute(dispute: DisputeRecord) {
  return {
    id: dispute.id,
    transactionId: dispute.transactionId,
    cardId: dispute.cardId,
    amount: dispute.amount,
    reason: dispute.reason,
    status: dispute.status,
    outcome: dispute.outcome,
    createdAt: toIso(dispute.createdAt),
    resolvedAt: iso(dispute.resolvedAt),
  };
}

export function renderWithdrawal(withdrawal: WithdrawalRecord) {
  return { ...withdrawal, createdAt: toIso(withdrawal.createdAt) };
}

export function renderDeposit(deposit: DepositRecord) {
  return { ...deposit, createdAt: toIso(deposit.createdAt) };
}

export function renderKyc(outcome: KycOutcome) {
  return { ...outcome, updatedAt: toIso(outcome.updatedAt) };
}

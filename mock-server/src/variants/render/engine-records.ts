import { toIso, toIsoOrNull } from '../../core/clock.js';
import type { ApiSchemas } from '../../core/stored.js';
import type { Credentials } from '../../engine/credentials.js';
import type { IntentRecord } from '../../engine/intents/intent-record.js';
import type { KycOutcome } from '../../engine/money/kyc.js';
import type { DepositRecord, DisputeRecord, TransactionRecord, WithdrawalRecord } from '../../engine/records.js';

/** The engine's records as the spec's response schemas (Transaction, Intent, ...): timestamps in ISO 8601. */
export function renderTransaction(txn: TransactionRecord): ApiSchemas['Transaction'] {
  return {
    id: txn.id,
    cardId: txn.cardId,
    agentId: txn.agentId,
    customerId: txn.customerId,
    amount: txn.amount,
    authorizedAmount: txn.authorizedAmount,
    reversedAmount: txn.reversedAmount,
    currency: txn.currency,
    merchant: renderMerchant(txn.merchant),
    status: txn.status,
    declinedReason: txn.declinedReason,
    attestationStatus: txn.attestationStatus,
    intentId: txn.intentId,
    challengeId: txn.challengeId,
    // Transactions stored before payment tokens have no such field.
    paymentTokenId: txn.paymentTokenId ?? null,
    // Transactions stored before mandates have no such field.
    mandate: txn.mandate ? { ...txn.mandate } : null,
    declinedMessage: txn.declinedMessage ?? null,
    createdAt: toIso(txn.createdAt),
    postedAt: toIsoOrNull(txn.postedAt),
    reversedAt: toIsoOrNull(txn.reversedAt),
  };
}

/** A transaction's merchant with the fields it was authorized with (an absent `mcc` or `id` stays absent). */
function renderMerchant(merchant: ApiSchemas['Merchant']): ApiSchemas['Merchant'] {
  return {
    name: merchant.name,
    ...(merchant.mcc === undefined ? {} : { mcc: merchant.mcc }),
    ...(merchant.id === undefined ? {} : { id: merchant.id }),
  };
}

export function renderIntent(intent: IntentRecord): ApiSchemas['Intent'] {
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
    approvedAt: toIsoOrNull(intent.approvedAt),
    approvedBy: intent.approvedBy,
    rejectedAt: toIsoOrNull(intent.rejectedAt),
    rejectedBy: intent.rejectedBy,
    rejectionReason: intent.rejectionReason,
    // Intents decided before decisions recorded who made them have none.
    decidedBy: intent.decidedBy ?? null,
    matchedTransactionId: intent.matchedTransactionId,
    // Intents stored before intents had an approval page have none.
    approvalUrl: intent.approvalUrl ?? null,
  };
}

export function renderDispute(dispute: DisputeRecord): ApiSchemas['Dispute'] {
  return {
    id: dispute.id,
    transactionId: dispute.transactionId,
    cardId: dispute.cardId,
    amount: dispute.amount,
    reason: dispute.reason,
    status: dispute.status,
    outcome: dispute.outcome,
    createdAt: toIso(dispute.createdAt),
    resolvedAt: toIsoOrNull(dispute.resolvedAt),
  };
}

export function renderWithdrawal(withdrawal: WithdrawalRecord): ApiSchemas['Withdrawal'] {
  return { ...withdrawal, createdAt: toIso(withdrawal.createdAt) };
}

export function renderDeposit(deposit: DepositRecord): ApiSchemas['Deposit'] {
  return { ...deposit, createdAt: toIso(deposit.createdAt) };
}

export function renderKyc(outcome: KycOutcome): ApiSchemas['KycApplication'] {
  return { ...outcome, updatedAt: toIso(outcome.updatedAt) };
}

/** The credentials answer: the card's numbers, and the access event that opened the attestation window. */
export function renderCredentials(credentials: Credentials): ApiSchemas['Credentials'] {
  const { accessEvent, ...card } = credentials;
  return { ...card, accessEventId: accessEvent.id, expiresAt: toIso(accessEvent.expiresAt) };
}

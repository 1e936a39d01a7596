import type { EventData } from '../../core/event-types.js';
import type { Actor } from '../../domain/types.js';
import type { TransactionRecord } from '../records.js';
import type { PaymentTokenRecord } from './token-record.js';

/** Fields every payment token event starts with. */
function base(token: PaymentTokenRecord) {
  return { paymentTokenId: token.id, cardId: token.cardId, agentId: token.agentId };
}

/** `payment_token.created`: the token as minted, `active` or `pending_approval`. */
export function tokenCreatedData(token: PaymentTokenRecord): EventData<'payment_token.created'> {
  return {
    ...base(token),
    userId: token.customerId,
    protocol: token.protocol,
    status: token.status === 'active' ? 'active' : 'pending_approval',
    merchantName: token.merchant.name,
    merchantId: token.merchant.id,
    maxAmount: token.maxAmount,
    currency: token.currency,
    challengeId: token.challengeId,
    checkoutSessionId: token.checkoutSessionId,
    intentId: token.intentId,
    approvalUrl: token.approvalUrl,
    expiresAt: token.expiresAt,
    ...(token.mandate ? { openMandateHash: token.mandate.openMandateHash } : {}),
  };
}

/** `payment_token.issued`: the token became usable. */
export function tokenIssuedData(token: PaymentTokenRecord, number: string, issuedAt: number): EventData<'payment_token.issued'> {
  return {
    ...base(token),
    protocol: token.protocol,
    merchantName: token.merchant.name,
    maxAmount: token.maxAmount,
    currency: token.currency,
    network: 'visa',
    last4: number.slice(-4),
    intentId: token.intentId,
    issuedAt,
    expiresAt: token.expiresAt,
  };
}

export function tokenRejectedData(
  token: PaymentTokenRecord,
  rejectedAt: number,
  reason: string | null,
): EventData<'payment_token.rejected'> {
  return { ...base(token), intentId: token.intentId, rejectedAt, rejectionReason: reason };
}

export function tokenUsedData(token: PaymentTokenRecord, txn: TransactionRecord): EventData<'payment_token.used'> {
  return {
    ...base(token),
    transactionId: txn.id,
    amount: txn.amount,
    currency: txn.currency,
    merchantName: txn.merchant.name,
    usedAt: txn.createdAt,
  };
}

export function tokenExpiredData(
  token: PaymentTokenRecord,
  previousStatus: 'pending_approval' | 'active',
  expiredAt: number,
): EventData<'payment_token.expired'> {
  return { ...base(token), previousStatus, expiredAt };
}

export function tokenRevokedData(token: PaymentTokenRecord, revokedAt: number, by: Actor): EventData<'payment_token.revoked'> {
  return { ...base(token), revokedAt, revokedBy: by };
}

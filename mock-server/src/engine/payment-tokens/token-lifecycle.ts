import { invalidState } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import type { Actor } from '../../domain/types.js';
import { loadCardScope } from '../card-scope.js';
import { intents, type TransactionRecord } from '../records.js';
import { newTokenNumber } from './network-token.js';
import { decideToken } from './token-decision.js';
import { tokenExpiredData, tokenIssuedData, tokenRejectedData, tokenRevokedData, tokenUsedData } from './token-events.js';
import { isOpen, type PaymentTokenRecord, paymentTokens } from './token-record.js';

/**
 * A payment token's transitions, each with its event (docs/payment-tokens.md#lifecycle):
 * `pending_approval` -> `active` (issued) or `rejected`; `active` -> `used`; either open status -> `expired` or
 * `revoked`.
 */

/** Gives the token its number: it is `active` from now on (`payment_token.issued`). */
export function issueToken(tenant: Tenant, token: PaymentTokenRecord): void {
  const now = tenant.now();
  const number = newTokenNumber(tenant);
  paymentTokens.of(tenant).update(token.id, (record) => {
    record.status = 'active';
    record.number = number;
    record.issuedAt = now;
  });
  tenant.emit('payment_token.issued', tokenIssuedData(token, number, now));
}

/** A token awaiting approval is refused (`payment_token.rejected`). */
function rejectToken(tenant: Tenant, token: PaymentTokenRecord, reason: string | null): void {
  const now = tenant.now();
  paymentTokens.of(tenant).update(token.id, (record) => {
    record.status = 'rejected';
    record.rejectedAt = now;
    record.rejectionReason = reason;
    record.approvalUrl = null;
  });
  tenant.emit('payment_token.rejected', tokenRejectedData(token, now, reason));
}

/** An approved authorization used the token (`payment_token.used`): every later one is declined `token_used`. */
export function markTokenUsed(tenant: Tenant, token: PaymentTokenRecord, txn: TransactionRecord): void {
  paymentTokens.of(tenant).update(token.id, (record) => {
    record.status = 'used';
    record.usedAt = txn.createdAt;
    record.transactionId = txn.id;
  });
  tenant.emit('payment_token.used', tokenUsedData(token, txn));
}

/** `pending_approval` or `active` -> `revoked` (`payment_token.revoked`); 400 `invalid_state` otherwise. */
export function revokeToken(tenant: Tenant, token: PaymentTokenRecord, by: Actor): PaymentTokenRecord {
  if (!isOpen(token)) {
    throw invalidState(`The payment token is ${token.status}; only a pending_approval or active token can be revoked.`, {
      paymentTokenId: token.id,
      status: token.status,
    });
  }
  const now = tenant.now();
  paymentTokens.of(tenant).update(token.id, (record) => {
    record.status = 'revoked';
    record.revokedAt = now;
    record.approvalUrl = null;
  });
  tenant.emit('payment_token.revoked', tokenRevokedData(token, now, by));
  return token;
}

/** The token's expiry passed while it was open (`payment_token.expired`). */
function expireToken(tenant: Tenant, tokenId: string): void {
  const token = paymentTokens.of(tenant).get(tokenId);
  if (!token || !isOpen(token)) return;
  const previous = token.status === 'active' ? 'active' : 'pending_approval';
  paymentTokens.of(tenant).update(token.id, (record) => {
    record.status = 'expired';
    record.approvalUrl = null;
  });
  tenant.emit('payment_token.expired', tokenExpiredData(token, previous, tenant.now()));
}

/** Schedules the token's expiry on the test clock. */
export function scheduleTokenExpiry(tenant: Tenant, token: PaymentTokenRecord): void {
  tenant.scheduler.schedule(token.expiresAt, () => expireToken(tenant, token.id), `payment token expiry ${token.id}`);
}

/** After a restore: every open token gets its expiry scheduled again. */
export function rescheduleTokenExpiries(tenant: Tenant): void {
  for (const [, token] of paymentTokens.of(tenant).entries()) if (isOpen(token)) scheduleTokenExpiry(tenant, token);
}

/** The tokens waiting for a decision on this intent. */
function waitingOn(tenant: Tenant, intentId: string): PaymentTokenRecord[] {
  return [...paymentTokens.of(tenant).values({ intentId, status: 'pending_approval' })];
}

/**
 * A person decided on an intent that tokens wait on. Approved: each token is checked again as at its request (the
 * card, policy and balance may have changed since) and issued, or refused with the decline reason. Rejected: each
 * is refused with the person's reason. Expired: each expires with it.
 */
export function settleTokensOf(tenant: Tenant, intentId: string, outcome: 'approved' | 'rejected' | 'expired'): void {
  for (const token of waitingOn(tenant, intentId)) {
    if (outcome === 'expired') expireToken(tenant, token.id);
    else if (outcome === 'rejected')
      rejectToken(tenant, token, intents.of(tenant).get(intentId)?.rejectionReason ?? 'The intent was rejected.');
    else {
      const scope = loadCardScope(tenant, token.cardId);
      const decision = decideToken(tenant, scope, token, intents.of(tenant).get(intentId) ?? null);
      if (decision.decision === 'decline') rejectToken(tenant, token, `Declined when approved: ${decision.declinedReason}.`);
      else issueToken(tenant, token);
    }
  }
}

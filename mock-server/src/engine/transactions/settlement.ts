import { invalidState, notFound } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { engineState } from '../engine-state.js';
import { changeBalance } from '../../domain/balances.js';
import { merchantObject } from './merchant-object.js';
import { disputes, transactions, type DisputeRecord, type TransactionRecord } from '../records.js';

export function getTransaction(tenant: Tenant, transactionId: string): TransactionRecord {
  const txn = transactions.of(tenant).get(transactionId);
  if (!txn) throw notFound();
  return txn;
}

/**
 * `pending` -> `completed` (`transaction.completed`, general name `transaction.settled`). The hold leaves `pending`,
 * the settled amount (default: the authorized amount) is `posted`, and any difference returns to `available`. A
 * transaction that presented a mandate keeps its signed AP2 receipt (`receipt`, mandates/receipts.ts).
 */
export function settleTransaction(
  tenant: Tenant,
  transactionId: string,
  amount: number | undefined,
  receipt?: string,
): TransactionRecord {
  const txn = getTransaction(tenant, transactionId);
  if (txn.status !== 'pending')
    throw invalidState(`The transaction is ${txn.status}; only a pending one can settle.`, { status: txn.status });
  const now = tenant.now();
  const settled = amount ?? txn.authorizedAmount;
  const state = engineState(tenant);
  transactions.of(tenant).update(txn.id, (record) => {
    record.status = 'completed';
    record.amount = settled;
    record.postedAt = now;
    if (record.mandate && receipt !== undefined) record.mandate = { ...record.mandate, receipt };
  });
  const delta = settled - txn.authorizedAmount;
  if (delta !== 0) {
    state.cardState(txn.cardId).sums.add(delta, now, txn.createdAt);
    if (txn.agentId) state.agentState(txn.agentId).sums.add(delta, now, txn.createdAt);
  }
  tenant.emit('transaction.completed', {
    transactionId: txn.id,
    cardId: txn.cardId,
    agentId: txn.agentId,
    userId: txn.customerId,
    amount: settled,
    authorizedAmount: txn.authorizedAmount,
    currency: txn.currency,
    merchantName: txn.merchant.name,
    status: 'completed',
    postedAt: now,
    merchant: merchantObject(txn),
    ...(txn.mandate ? { openMandateHash: txn.mandate.openMandateHash } : {}),
    ...(txn.mandate?.receipt ? { paymentReceipt: txn.mandate.receipt } : {}),
  });
  changeBalance(tenant, txn.customerId, {
    pending: -txn.authorizedAmount,
    posted: settled,
    available: txn.authorizedAmount - settled,
  });
  return txn;
}

/**
 * A refund (of a `completed` transaction, from `posted`) or a void (of a `pending` one, releasing the hold): the
 * transaction becomes `reversed` (`transaction.reversed`), the amount returns to `available` and leaves the
 * card's and agent's spend. `amount` reverses part of it; the default is all.
 */
export function reverseTransaction(tenant: Tenant, transactionId: string, amount: number | undefined): TransactionRecord {
  const txn = getTransaction(tenant, transactionId);
  if (txn.status !== 'completed' && txn.status !== 'pending') {
    throw invalidState(`The transaction is ${txn.status}; only a pending or completed one can be reversed.`, {
      status: txn.status,
    });
  }
  if (amount !== undefined && amount > txn.amount) {
    throw invalidState(`Cannot reverse ${amount}: the transaction amount is ${txn.amount}.`, { amount: txn.amount });
  }
  const now = tenant.now();
  const reversed = amount ?? txn.amount;
  const wasPending = txn.status === 'pending';
  const original = txn.amount;
  const state = engineState(tenant);
  transactions.of(tenant).update(txn.id, (record) => {
    record.status = 'reversed';
    record.reversedAmount = reversed;
    record.reversedAt = now;
  });
  state.cardState(txn.cardId).sums.add(-reversed, now, txn.createdAt);
  if (txn.agentId) state.agentState(txn.agentId).sums.add(-reversed, now, txn.createdAt);
  tenant.emit('transaction.reversed', {
    transactionId: txn.id,
    cardId: txn.cardId,
    originalAmount: original,
    reversedAmount: reversed,
    currency: txn.currency,
    merchantName: txn.merchant.name,
    status: 'reversed',
  });
  // A void releases the whole hold; the part not reversed is then spent (posted).
  const move = wasPending
    ? { pending: -original, available: reversed, posted: original - reversed }
    : { posted: -reversed, available: reversed };
  changeBalance(tenant, txn.customerId, move);
  return txn;
}

/**
 * A chargeback on a completed (or partly reversed) transaction: an `open` dispute (`dispute.created`). One per
 * transaction, and only over what is still spent: the part already reversed went back to `available`, so a won
 * dispute must not credit it a second time.
 */
export function openDispute(
  tenant: Tenant,
  transactionId: string,
  request: { reason?: string | undefined; amount?: number | undefined },
): DisputeRecord {
  const txn = getTransaction(tenant, transactionId);
  if (txn.status !== 'completed' && txn.status !== 'reversed') {
    throw invalidState(`The transaction is ${txn.status}; only a settled transaction can be disputed.`, { status: txn.status });
  }
  if (txn.disputeId !== null) throw invalidState('The transaction already has a dispute.', { disputeId: txn.disputeId });
  const disputable = txn.amount - txn.reversedAmount;
  if (disputable <= 0) throw invalidState('The transaction was reversed in full; nothing is left to dispute.', { amount: 0 });
  const amount = request.amount ?? disputable;
  if (amount > disputable) {
    throw invalidState(`Cannot dispute ${amount}: ${disputable} of the transaction is still spent.`, { amount: disputable });
  }
  const dispute: DisputeRecord = {
    id: tenant.ids.next('dispute'),
    transactionId: txn.id,
    cardId: txn.cardId,
    customerId: txn.customerId,
    amount,
    reason: request.reason ?? 'fraudulent',
    status: 'open',
    outcome: null,
    createdAt: tenant.now(),
    resolvedAt: null,
  };
  disputes.of(tenant).insert(dispute);
  transactions.of(tenant).update(txn.id, (record) => {
    record.disputeId = dispute.id;
  });
  tenant.emit('dispute.created', {
    disputeId: dispute.id,
    transactionId: txn.id,
    cardId: txn.cardId,
    amount,
    reason: dispute.reason,
    status: 'open',
  });
  return dispute;
}

/** `open` -> `closed` with the outcome (`dispute.resolved`); a won dispute credits the amount back to `available`. */
export function resolveDispute(tenant: Tenant, disputeId: string, outcome: 'won' | 'lost'): DisputeRecord {
  const dispute = disputes.of(tenant).get(disputeId);
  if (!dispute) throw notFound();
  if (dispute.status !== 'open')
    throw invalidState('The dispute is already resolved.', { status: dispute.status, outcome: dispute.outcome });
  const now = tenant.now();
  disputes.of(tenant).update(dispute.id, (record) => {
    record.status = 'closed';
    record.outcome = outcome;
    record.resolvedAt = now;
  });
  tenant.emit('dispute.resolved', {
    disputeId: dispute.id,
    transactionId: dispute.transactionId,
    amount: dispute.amount,
    outcome,
    status: 'closed',
  });
  if (outcome === 'won') {
    changeBalance(tenant, dispute.customerId, { posted: -dispute.amount, available: dispute.amount });
  }
  return dispute;
}

import { balanceOf, changeBalance } from '../../domain/balances.js';
import { HttpError, invalidState, notFound } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { withdrawals, type WithdrawalRecord } from '../records.js';
import { hexFrom, requireCustomer } from './onchain.js';

/**
 * A withdrawal request: 400 `insufficient_funds` above `available`; otherwise the amount leaves `available` and the
 * withdrawal is `pending` (`withdrawal.submitted`, `user.balance.updated`).
 */
export function createWithdrawal(
  tenant: Tenant,
  customerId: string,
  request: { amount: number; currency?: string | undefined; chainId: number; recipientAddress: string },
): WithdrawalRecord {
  requireCustomer(tenant, customerId);
  const balance = balanceOf(tenant, customerId);
  if (request.amount > balance.available) {
    throw new HttpError(
      400,
      'insufficient_funds',
      `The amount ${request.amount} exceeds the available balance of ${balance.available}.`,
      {
        available: balance.available,
      },
    );
  }
  const now = tenant.now();
  const withdrawal: WithdrawalRecord = {
    id: tenant.ids.next('withdrawal'),
    customerId,
    chainId: request.chainId,
    amount: request.amount,
    currency: (request.currency ?? balance.currency).toLowerCase(),
    recipientAddress: request.recipientAddress,
    status: 'pending',
    transactionHash: null,
    reason: null,
    createdAt: now,
  };
  withdrawals.of(tenant).insert(withdrawal);
  tenant.emit('withdrawal.submitted', { ...withdrawalBase(withdrawal), status: 'pending' });
  changeBalance(tenant, customerId, { available: -withdrawal.amount });
  return withdrawal;
}

export function getWithdrawal(tenant: Tenant, withdrawalId: string): WithdrawalRecord {
  const withdrawal = withdrawals.of(tenant).get(withdrawalId);
  if (!withdrawal) throw notFound();
  return withdrawal;
}

/** `pending` -> `confirmed` on-chain (`withdrawal.confirmed` with the transaction hash). */
export function confirmWithdrawal(tenant: Tenant, withdrawalId: string): WithdrawalRecord {
  const withdrawal = pendingWithdrawal(tenant, withdrawalId);
  const transactionHash = hexFrom(`withdrawal:${withdrawal.id}`, 32);
  withdrawals.of(tenant).update(withdrawal.id, (record) => {
    record.status = 'confirmed';
    record.transactionHash = transactionHash;
  });
  tenant.emit('withdrawal.confirmed', { ...withdrawalBase(withdrawal), transactionHash });
  return withdrawal;
}

/** `pending` -> `failed` (`withdrawal.failed`, reason `insufficient_gas`); the amount returns to `available`. */
export function failWithdrawal(tenant: Tenant, withdrawalId: string): WithdrawalRecord {
  const withdrawal = pendingWithdrawal(tenant, withdrawalId);
  const reason = 'insufficient_gas';
  withdrawals.of(tenant).update(withdrawal.id, (record) => {
    record.status = 'failed';
    record.reason = reason;
  });
  tenant.emit('withdrawal.failed', { ...withdrawalBase(withdrawal), reason, transactionHash: null });
  changeBalance(tenant, withdrawal.customerId, { available: withdrawal.amount });
  return withdrawal;
}

function pendingWithdrawal(tenant: Tenant, withdrawalId: string): WithdrawalRecord {
  const withdrawal = getWithdrawal(tenant, withdrawalId);
  if (withdrawal.status !== 'pending') {
    throw invalidState(`The withdrawal is ${withdrawal.status}; only a pending one can be confirmed or fail.`, {
      status: withdrawal.status,
    });
  }
  return withdrawal;
}

function withdrawalBase(withdrawal: WithdrawalRecord) {
  return {
    withdrawalId: withdrawal.id,
    userId: withdrawal.customerId,
    chainId: withdrawal.chainId,
    amount: withdrawal.amount,
    recipientAddress: withdrawal.recipientAddress,
  };
}

import type { ApiSchemas, Stored } from '../core/stored.js';
import { defineCollection, type Tenant } from '../core/tenant.js';

/** A customer's balance (`Balance`) in cents; `id` is the customer id. */
export type BalanceRecord = Stored<ApiSchemas['Balance']> & {
  id: string;
  /** Total ever deposited, reported by `user.balance.updated`. */
  deposited: number;
};

const balances = defineCollection<BalanceRecord>('balances');

const DEFAULT_CURRENCY = 'usd';

/** Test-mode customers start with a zero balance (docs/money.md). */
export function createBalance(tenant: Tenant, customerId: string): BalanceRecord {
  return balances.of(tenant).insert({
    id: customerId,
    currency: DEFAULT_CURRENCY,
    available: 0,
    pending: 0,
    posted: 0,
    limit: null,
    deposited: 0,
    updatedAt: tenant.now(),
  });
}

export function balanceOf(tenant: Tenant, customerId: string): BalanceRecord {
  return balances.of(tenant).get(customerId) ?? createBalance(tenant, customerId);
}

/** Signed changes to apply to a balance, in cents. */
export interface BalanceChange {
  available?: number;
  pending?: number;
  posted?: number;
  deposited?: number;
}

/**
 * Moves money on a customer's balance and sends `user.balance.updated` (every balance change sends it,
 * docs/events.md). For the engine: authorization moves
 * available -> pending, settlement pending -> posted, reversal returns to available, deposits raise available.
 */
export function changeBalance(tenant: Tenant, customerId: string, change: BalanceChange): BalanceRecord {
  const balance = balanceOf(tenant, customerId);
  balances.of(tenant).update(customerId, (record) => {
    record.available += change.available ?? 0;
    record.pending += change.pending ?? 0;
    record.posted += change.posted ?? 0;
    record.deposited += change.deposited ?? 0;
    record.updatedAt = tenant.now();
  });
  tenant.emit('user.balance.updated', {
    userId: customerId,
    available: balance.available,
    pending: balance.pending,
    deposited: balance.deposited,
    currency: balance.currency,
  });
  return balance;
}

import { changeBalance } from '../../domain/balances.js';
import type { Tenant } from '../../core/tenant.js';
import { deposits, type DepositRecord } from '../records.js';
import { DEFAULT_CHAIN_ID, DEFAULT_TOKEN_ADDRESS, hexFrom, requireCustomer } from './onchain.js';

/** `POST /simulate/deposits`: raises `available` (`deposit.received`, `user.balance.updated`). */
export function simulateDeposit(
  tenant: Tenant,
  request: { customerId: string; amount: number; chainId?: number | undefined; tokenAddress?: string | undefined },
): DepositRecord {
  requireCustomer(tenant, request.customerId);
  const now = tenant.now();
  const id = tenant.ids.next('deposit');
  const deposit: DepositRecord = {
    id,
    customerId: request.customerId,
    amount: request.amount,
    chainId: request.chainId ?? DEFAULT_CHAIN_ID,
    tokenAddress: request.tokenAddress ?? DEFAULT_TOKEN_ADDRESS,
    transactionHash: hexFrom(id, 32),
    createdAt: now,
  };
  deposits.of(tenant).insert(deposit);
  tenant.emit('deposit.received', {
    userId: deposit.customerId,
    chainId: deposit.chainId,
    tokenAddress: deposit.tokenAddress,
    amount: deposit.amount,
    transactionHash: deposit.transactionHash,
  });
  changeBalance(tenant, deposit.customerId, { available: deposit.amount, deposited: deposit.amount });
  return deposit;
}

import { sha256Hex } from '../../core/sha256.js';
import { notFound } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { customers, type CustomerRecord, type DepositAddress } from '../../domain/customers.js';

/** Base mainnet and its USDC token: the chain and token the mock's deposit addresses use by default. */
export const DEFAULT_CHAIN_ID = 8453;
export const DEFAULT_TOKEN_ADDRESS = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** The customer named by a money operation, or 404. */
export function requireCustomer(tenant: Tenant, customerId: string): CustomerRecord {
  // A deleted customer has left the collection: money operations answer 404 for it like for any unknown id.
  const customer = customers.of(tenant).get(customerId);
  if (!customer) throw notFound();
  return customer;
}

/** A deterministic 0x-prefixed hex string of `bytes` bytes derived from `seed`. */
export function hexFrom(seed: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i++) out += sha256Hex(`${seed}:${i}`);
  return `0x${out.slice(0, bytes * 2)}`;
}

/** The deposit address a customer gets when KYC is approved. */
export function depositAddressFor(customerId: string): DepositAddress {
  return { chainId: DEFAULT_CHAIN_ID, depositAddress: hexFrom(`deposit:${customerId}`, 20), tokenAddress: DEFAULT_TOKEN_ADDRESS };
}

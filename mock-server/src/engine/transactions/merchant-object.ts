import type { TransactionRecord } from '../records.js';

/** The `merchant` object the general-description transaction events carry: name and category code. */
export function merchantObject(txn: TransactionRecord): { name: string; mcc: string | null } {
  return { name: txn.merchant.name, mcc: txn.merchant.mcc ?? null };
}

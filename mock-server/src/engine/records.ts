import { defineCollection } from '../core/tenant.js';
import type { AccessRecord } from './attestation.js';
import type { IntentRecord } from './intents/intent-record.js';
import type { ApiSchemas, Stored } from '../core/stored.js';

/** A transaction (`Transaction`); the mock always knows its customer and remembers whether it was disputed. */
export type TransactionRecord = Omit<Stored<ApiSchemas['Transaction']>, 'customerId'> & {
  customerId: string;
  /** Set once a dispute was opened, so a transaction is disputed at most once. */
  disputeId: string | null;
};

/** A dispute (`Dispute`) and the customer whose balance its outcome moves. */
export type DisputeRecord = Stored<ApiSchemas['Dispute']> & { customerId: string };

export type WithdrawalRecord = Stored<ApiSchemas['Withdrawal']>;

export type DepositRecord = Stored<ApiSchemas['Deposit']>;

export const transactions = defineCollection<TransactionRecord>('engine.transactions', {
  filters: { cardId: (t) => t.cardId, agentId: (t) => t.agentId ?? undefined, status: (t) => t.status },
});
export const intents = defineCollection<IntentRecord>('engine.intents', {
  filters: { cardId: (i) => i.cardId, status: (i) => i.status },
});
export const disputes = defineCollection<DisputeRecord>('engine.disputes');
export const withdrawals = defineCollection<WithdrawalRecord>('engine.withdrawals', {
  filters: { customerId: (w) => w.customerId },
});
export const deposits = defineCollection<DepositRecord>('engine.deposits', {
  filters: { customerId: (d) => d.customerId },
});
export const accessEvents = defineCollection<AccessRecord>('engine.accessEvents', {
  filters: { cardId: (a) => a.cardId },
});

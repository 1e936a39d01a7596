import { defineCollection } from '../core/tenant.js';
import type { AccessRecord } from './attestation.js';
import type { IntentRecord } from './intents/intent-record.js';
import type { DeclineReason, EpochMs, Merchant } from './types.js';

export interface TransactionRecord {
  id: string;
  cardId: string;
  agentId: string | null;
  customerId: string;
  amount: number;
  authorizedAmount: number;
  reversedAmount: number;
  currency: string;
  merchant: Merchant;
  status: 'pending' | 'completed' | 'declined' | 'reversed';
  declinedReason: DeclineReason | null;
  attestationStatus: 'attested' | 'unattested' | null;
  intentId: string | null;
  challengeId: string | null;
  createdAt: EpochMs;
  postedAt: EpochMs | null;
  reversedAt: EpochMs | null;
  /** Set once a dispute was opened, so a transaction is disputed at most once. */
  disputeId: string | null;
}

export interface DisputeRecord {
  id: string;
  transactionId: string;
  cardId: string;
  customerId: string;
  amount: number;
  reason: string;
  status: 'open' | 'closed';
  outcome: 'won' | 'lost' | null;
  createdAt: EpochMs;
  resolvedAt: EpochMs | null;
}

export interface WithdrawalRecord {
  id: string;
  customerId: string;
  chainId: number;
  amount: number;
  currency: string;
  recipientAddress: string;
  status: 'pending' | 'confirmed' | 'failed';
  transactionHash: string | null;
  reason: string | null;
  createdAt: EpochMs;
}

export interface DepositRecord {
  id: string;
  customerId: string;
  amount: number;
  chainId: number;
  tokenAddress: string;
  transactionHash: string;
  createdAt: EpochMs;
}

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

import type { TransactionRecord } from '../records.js';
import type { AgentSpendState, CardSpendState } from './spend-state.js';

interface SpendSource {
  cardState(cardId: string): CardSpendState;
  agentState(agentId: string): AgentSpendState;
}

interface SpendStep {
  at: number;
  txn: TransactionRecord;
  /** The authorization itself, or the later change of its amount (settled for another amount, reversed). */
  kind: 'authorize' | 'adjust';
  delta: number;
}

/**
 * Rebuilds the cards' and agents' spend aggregates from the stored transactions (restoring a saved state): every
 * approved authorization, then the settlement differences and reversals, replayed in time order exactly as
 * authorize(), settleTransaction() and reverseTransaction() recorded them. Each transaction's steps keep their
 * order, and no step takes a running sum below zero, so transactions of the same instant may interleave freely.
 */
export function rebuildSpend(state: SpendSource, stored: Iterable<[number, TransactionRecord]>): void {
  const steps: SpendStep[] = [];
  for (const [, txn] of stored) {
    if (txn.status === 'declined') continue;
    steps.push({ at: txn.createdAt, txn, kind: 'authorize', delta: txn.authorizedAmount });
    if (txn.postedAt !== null && txn.amount !== txn.authorizedAmount) {
      steps.push({ at: txn.postedAt, txn, kind: 'adjust', delta: txn.amount - txn.authorizedAmount });
    }
    if (txn.reversedAt !== null) steps.push({ at: txn.reversedAt, txn, kind: 'adjust', delta: -txn.reversedAmount });
  }
  // A stable sort: steps of one instant keep the order of their transactions, and each transaction its own.
  steps.sort((a, b) => a.at - b.at);
  for (const { at, txn, kind, delta } of steps) {
    if (kind === 'authorize') {
      state.cardState(txn.cardId).recordSpend(txn.id, delta, txn.merchant, at);
      if (txn.agentId) state.agentState(txn.agentId).sums.add(delta, at);
    } else {
      state.cardState(txn.cardId).sums.add(delta, at, txn.createdAt);
      if (txn.agentId) state.agentState(txn.agentId).sums.add(delta, at, txn.createdAt);
    }
  }
}

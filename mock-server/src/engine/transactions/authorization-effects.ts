import type { Tenant } from '../../core/tenant.js';
import type { AccessRecord } from '../attestation.js';
import type { CardScope } from '../card-scope.js';
import { engineState } from '../engine-state.js';
import { intentMatchedData, intentMismatchedData } from '../intents/intent-events.js';
import type { IntentMatch } from '../intents/intent-matching.js';
import { intents, type TransactionRecord } from '../records.js';

/** `spend.attested` with the access that attested the spend, or `spend.unattested`. */
export function emitAttestation(
  tenant: Tenant,
  scope: CardScope,
  txn: TransactionRecord,
  attested: boolean,
  access: AccessRecord | null,
): void {
  const common = {
    transactionId: txn.id,
    cardId: scope.card.id,
    agentId: scope.card.agentId,
    amount: txn.amount,
    merchantName: txn.merchant.name,
  };
  if (attested && access) {
    tenant.emit('spend.attested', {
      ...common,
      attestedAt: access.at,
      summary: access.summary,
      expectedAmount: access.expectedAmount,
    });
  } else {
    tenant.emit('spend.unattested', { ...common, lastCredentialAccess: access?.at ?? null });
  }
}

/** Moves the intent an authorization was compared with to `matched` or `mismatched`, with its event. */
export function settleIntent(tenant: Tenant, match: IntentMatch, txn: TransactionRecord): void {
  const state = engineState(tenant);
  intents.of(tenant).update(match.intent.id, (intent) => {
    intent.status = match.matched ? 'matched' : 'mismatched';
    intent.matchedTransactionId = txn.id;
  });
  state.openIntents(match.intent.cardId).delete(match.intent.id);
  if (match.matched) tenant.emit('intent.matched', intentMatchedData(match, txn.id, txn.amount, txn.merchant.name));
  else tenant.emit('intent.mismatched', intentMismatchedData(match, txn.id, txn.amount, txn.merchant.name));
}

import { balanceOf, changeBalance } from '../../domain/balances.js';
import { closeCard, freezeCard, recordCardSpend } from '../../domain/cards.js';
import { decide, declinedBeforeRules } from '../decision/decide.js';
import type { AccessRecord } from '../attestation.js';
import type { Decision } from '../decision/evaluate-spend.js';
import { loadCardScope, type CardScope } from '../card-scope.js';
import type { Tenant } from '../../core/tenant.js';
import { engineState, type EngineTenantState } from '../engine-state.js';
import { merchantCategoryName } from '../merchant-categories.js';
import { merchantObject } from './merchant-object.js';
import { agentLimitSet } from '../policy/card-policy.js';
import { gateMandate, type MandateInput } from '../mandates/mandate-gate.js';
import { transactions, type TransactionRecord } from '../records.js';
import { expireCardIfDue } from '../ttl.js';
import type { DeclineReason, Merchant } from '../types.js';
import { applyAgentBreach, limitsApproached } from './agent-limits.js';
import { emitAttestation, settleIntent } from './authorization-effects.js';
import { applyRiskAction, emitAnomalies } from './risk-actions.js';

export interface AuthorizationRequest {
  cardId: string;
  amount: number;
  currency?: string | undefined;
  merchant: Merchant;
  threeDS?: boolean | undefined;
}

/** An authorization made with a payment token in place of the card's number (payment-tokens/token-authorization.ts). */
export interface TokenAuthorization {
  paymentTokenId: string;
  /** The reason the token's own checks decline it with, before any rule of the card is read; null when they pass. */
  declinedBy: { reason: DeclineReason; message: string } | null;
  /** The token's issue: it attests the spend, as a credential access would. */
  attestation: AccessRecord;
  /** The token's intent, matched before the card's other intents. */
  intentId: string | null;
}

/** Reasons that stop an authorization before any rule is evaluated: nothing but `transaction.declined` happens. */
const STOPS_BEFORE_RULES: ReadonlySet<DeclineReason> = new Set<DeclineReason>([
  'card_closed',
  'card_frozen',
  'cryptogram_invalid',
  'token_revoked',
  'token_used',
  'token_expired',
  'token_merchant_mismatch',
  'token_currency_mismatch',
  'token_amount_exceeded',
  'mandate_required',
  'mandate_unverifiable',
  'mandate_rejected',
]);

/** How long a 3-D Secure one-time code stays valid. */
const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * `POST /simulate/authorize`: decides the authorization, records the transaction (`pending` or `declined`) and
 * applies every consequence with its events, in this order. Approved: `challenge.requested` (3-D Secure),
 * `transaction.authorized`, `user.balance.updated`, `spend.attested`/`spend.unattested`, `intent.matched`/
 * `intent.mismatched`, anomalies (alert or dry run), `card.merchant_drift`, `agent.limit_approaching`, and
 * `card.closed` for a single-use card. Declined: `transaction.declined`, then the consequences of each rule the
 * attempt broke (risk action, attestation freeze, merchant drift freeze, agent suspension, card freeze).
 * An evaluation's `review` (an intent or approval the policy asks for is missing) does not decline: those rules are
 * enforced where the agent gets the card number, at `POST /cards/{id}/credentials`, or a payment token.
 * With a payment token (`token`), a reason its own checks found declines at once; otherwise the token attests the
 * spend and its intent is matched first, and everything else is as for the card. An AP2 mandate (or its absence
 * where the policy requires one, or the mandate the token was minted with) is judged next (mandates/mandate-gate.ts):
 * a refusal declines at once; a verified mandate attests the spend, is recorded on the transaction and named by its
 * events.
 */
export function authorize(
  tenant: Tenant,
  request: AuthorizationRequest,
  token?: TokenAuthorization,
  mandateInput?: MandateInput,
): TransactionRecord {
  // The card is read once: the scope's records are live, so the expiry's transition shows in them.
  const scope = loadCardScope(tenant, request.cardId);
  expireCardIfDue(tenant, scope);
  const { card } = scope;
  const state = engineState(tenant);
  const now = tenant.now();
  const currency = (request.currency ?? balanceOf(tenant, card.customerId).currency).toLowerCase();
  const spend = { amount: request.amount, currency, merchant: request.merchant, cardId: card.id, now };
  const gate = gateMandate(tenant, scope, mandateInput, spend);
  const declinedBy = token?.declinedBy ?? gate.declinedBy;
  const decision = declinedBy
    ? declinedBeforeRules(declinedBy.reason, declinedBy.message)
    : decide(tenant, scope, request.amount, request.merchant, {
        access: token?.attestation ?? gate.access ?? undefined,
        preferredIntentId: token?.intentId,
        mandate: gate.mandate ? 'verified' : undefined,
      });
  const approved = decision.decision !== 'decline';
  const record: TransactionRecord = {
    id: tenant.ids.next('transaction'),
    cardId: card.id,
    agentId: card.agentId,
    customerId: card.customerId,
    amount: request.amount,
    authorizedAmount: request.amount,
    reversedAmount: 0,
    currency,
    merchant: { ...request.merchant },
    status: approved ? 'pending' : 'declined',
    declinedReason: decision.declinedReason,
    attestationStatus: approved ? (decision.attested ? 'attested' : 'unattested') : null,
    intentId: null,
    challengeId: null,
    paymentTokenId: token?.paymentTokenId ?? null,
    mandate: gate.mandate,
    declinedMessage: gate.declinedBy?.message ?? null,
    createdAt: now,
    postedAt: null,
    reversedAt: null,
    disputeId: null,
  };
  const consumesIntent =
    decision.intent !== null && (approved || (decision.declinedReason === 'fraud_suspected' && !decision.intent.matched));
  if (consumesIntent && decision.intent) record.intentId = decision.intent.intent.id;
  if (approved && request.threeDS) record.challengeId = tenant.ids.next('challenge');
  transactions.of(tenant).insert(record);
  gate.usePresentation();
  if (approved) gate.recordSpend(record.amount);
  const access = token?.attestation ?? gate.access ?? state.lastAccess.get(card.id) ?? null;
  if (approved) applyApproved(tenant, scope, state, decision, record, access);
  else applyDeclined(tenant, scope, decision, declineReasonOf(decision), record, consumesIntent, access);
  return record;
}

function applyApproved(
  tenant: Tenant,
  scope: CardScope,
  state: EngineTenantState,
  decision: Decision,
  txn: TransactionRecord,
  access: AccessRecord | null,
): void {
  const { card, agent } = scope;
  const now = txn.createdAt;
  if (txn.challengeId) {
    tenant.emit('challenge.requested', {
      challengeId: txn.challengeId,
      cardId: card.id,
      transactionId: txn.id,
      otp: String(100000 + (hashCode(txn.id) % 900000)),
      expiresAt: now + CHALLENGE_TTL_MS,
      deliveryMethod: 'sms',
    });
  }
  tenant.emit('transaction.authorized', {
    transactionId: txn.id,
    cardId: card.id,
    agentId: card.agentId,
    userId: card.customerId,
    amount: txn.amount,
    currency: txn.currency,
    merchantName: txn.merchant.name,
    merchantCategory: merchantCategoryName(txn.merchant.mcc),
    merchantCategoryCode: txn.merchant.mcc ?? null,
    status: 'pending',
    attestationStatus: decision.attested ? 'attested' : 'unattested',
    merchant: merchantObject(txn),
    ...tokenOf(txn),
    ...mandateOf(txn),
  });
  changeBalance(tenant, card.customerId, { available: -txn.amount, pending: txn.amount });

  // Agent limit warnings compare the spend before and after this authorization, so read before recording it.
  const approaching = agent ? limitsApproached(state, agent.id, agentLimitSet(agent), txn.amount, now) : [];
  state.cardState(card.id).recordSpend(txn.id, txn.amount, txn.merchant, now);
  if (card.agentId) state.agentState(card.agentId).sums.add(txn.amount, now);
  recordCardSpend(tenant, card, {
    lastSpendAt: now,
    ...(card.merchantLock === null && scope.policy.lockToFirstMerchant ? { merchantLock: txn.merchant.name } : {}),
    ...(card.firstSpendAt === null ? { firstSpendAt: now } : {}),
  });

  emitAttestation(tenant, scope, txn, decision.attested, access);
  if (decision.intent) settleIntent(tenant, decision.intent, txn);
  emitAnomalies(tenant, card, txn.id, decision.anomalies, state.risk.dryRun);
  if (decision.requestedRiskAction && state.risk.dryRun)
    applyRiskAction(tenant, card, txn.id, decision.requestedRiskAction, true);
  if (decision.drift) emitMerchantDrift(tenant, txn, decision.drift, 'allowed');
  if (agent)
    for (const warning of approaching)
      tenant.emit('agent.limit_approaching', { agentId: agent.id, userId: card.customerId, ...warning });
  if (card.usage === 'single') {
    recordCardSpend(tenant, card, { singleUseConsumedAt: now });
    closeCard(tenant, card, 'single_use_completed', 'system');
  }
}

/** `card.merchant_drift`: the card spent at another merchant than its hint, lock or first merchant. */
function emitMerchantDrift(
  tenant: Tenant,
  txn: TransactionRecord,
  drift: { expectedMerchant: string; actualMerchant: string },
  action: 'allowed' | 'frozen',
): void {
  tenant.emit('card.merchant_drift', {
    cardId: txn.cardId,
    agentId: txn.agentId,
    transactionId: txn.id,
    expectedMerchant: drift.expectedMerchant,
    actualMerchant: drift.actualMerchant,
    amount: txn.amount,
    action,
  });
}

/** The first reason of a declined decision (evaluateSpend names one whenever it declines). */
function declineReasonOf(decision: Decision): DeclineReason {
  if (decision.declinedReason === null) throw new Error('A declined decision must name its reason.');
  return decision.declinedReason;
}

function applyDeclined(
  tenant: Tenant,
  scope: CardScope,
  decision: Decision,
  declinedReason: DeclineReason,
  txn: TransactionRecord,
  consumesIntent: boolean,
  access: AccessRecord | null,
): void {
  const { card } = scope;
  const dryRun = engineState(tenant).risk.dryRun;
  tenant.emit('transaction.declined', {
    transactionId: txn.id,
    cardId: card.id,
    agentId: card.agentId,
    amount: txn.amount,
    currency: txn.currency,
    merchantName: txn.merchant.name,
    status: 'declined',
    declinedReason,
    ...tokenOf(txn),
    ...mandateOf(txn),
    ...(txn.declinedMessage ? { declinedMessage: txn.declinedMessage } : {}),
  });
  // A closed or frozen card, or a token refused by its own checks, stops before any rule is evaluated.
  if (STOPS_BEFORE_RULES.has(declinedReason)) return;
  if (decision.unattestedBlock) emitAttestation(tenant, scope, txn, false, access);
  if (consumesIntent && decision.intent) settleIntent(tenant, decision.intent, txn);
  emitAnomalies(tenant, card, txn.id, decision.anomalies, dryRun);
  if (decision.requestedRiskAction) applyRiskAction(tenant, card, txn.id, decision.requestedRiskAction, dryRun);
  // Each consequence may have frozen the card already; the card record is live.
  const isActive = () => card.status === 'active';
  if (decision.unattestedBlock && isActive()) freezeCard(tenant, card, 'unattested_spend', 'system');
  if (decision.drift?.freeze) {
    const freeze = isActive();
    emitMerchantDrift(tenant, txn, decision.drift, 'frozen');
    if (freeze) freezeCard(tenant, card, 'merchant_drift', 'system');
  }
  if (decision.agentBreach && scope.agent?.status === 'active') {
    applyAgentBreach(tenant, scope, decision.agentBreach);
  }
  if (decision.cardBreach && isActive()) freezeCard(tenant, card, 'spending_limit_exceeded', 'system');
}

/** The mandate field of a transaction event: present only for an authorization that presented one. */
function mandateOf(txn: TransactionRecord): { openMandateHash?: string } {
  return txn.mandate ? { openMandateHash: txn.mandate.openMandateHash } : {};
}

/** The payment token field of a transaction event: present only for an authorization made with one. */
function tokenOf(txn: TransactionRecord): { paymentTokenId?: string } {
  return txn.paymentTokenId === null ? {} : { paymentTokenId: txn.paymentTokenId };
}

function hashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
  return hash;
}

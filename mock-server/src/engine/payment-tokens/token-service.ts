import { HttpError, notFound } from '../../core/errors.js';
import { type ListPage, type ListQuery, listPage } from '../../core/list-page.js';
import type { Tenant } from '../../core/tenant.js';
import { balanceOf } from '../../domain/balances.js';
import { requireCard } from '../../domain/cards.js';
import { loadCardScope } from '../card-scope.js';
import type { ApprovalPage } from '../intents/approval-page.js';
import type { MandateSpend } from '../mandates/mandate-constraints.js';
import { gateMandate, type MandateInput } from '../mandates/mandate-gate.js';
import { presentMandate } from '../mandates/mandate-presentation.js';
import { bindMandate } from '../mandates/token-mandate.js';
import { expireCardIfDue } from '../ttl.js';
import { type AcpAllowance, readAllowance } from './acp-allowance.js';
import { readCardChallenge } from './mpp-challenge.js';
import { importsAsEncryptionKey } from './mpp-credential.js';
import { decideToken, mandateDeclined, paymentTokenDeclined } from './token-decision.js';
import { declareTokenIntent, findTokenIntent } from './token-intent.js';
import { issueToken, scheduleTokenExpiry } from './token-lifecycle.js';
import { tokenCreatedData } from './token-events.js';
import { bindingOf, isOpen, type PaymentTokenRecord, type PaymentTokenStatus, paymentTokens } from './token-record.js';
import { invalidPaymentRequest, type TokenTerms } from './token-terms.js';
import { type PaymentTokenView, viewOf } from './token-view.js';

/** `POST /cards/{cardId}/payment-tokens`, as the schema has checked it: exactly one of `mpp` and `acp`. */
export interface PaymentTokenRequest {
  mpp?: { challenge: string } | undefined;
  acp?: { allowance: AcpAllowance; merchantName: string } | undefined;
  intentId?: string | undefined;
  mcc?: string | undefined;
  agentMandate?: string | undefined;
}

/**
 * Mints a payment token of the card for an MPP card challenge or an ACP allowance (docs/payment-tokens.md). In order,
 * and with nothing minted, declared or changed before the last step: the card (404, 400 `card_not_active`); the
 * challenge or allowance (400 `invalid_payment_request`, `payment_request_expired`); the merchant's key, which jose
 * must import; the currency (400 `currency_not_supported`); a token already open or used for the same challenge or
 * checkout (400 `invalid_state`); the intent (400 `intent_required`); the spend decision at the full amount (400
 * `payment_token_declined`). The AP2 mandate (`agentMandate`, verified before, against the token's full amount and
 * merchant) or its absence where `requireMandate` holds is judged before the intent (400 `payment_token_declined`).
 * Then the intent is declared when the policy needs one, the token is minted (`active` at once, or
 * `pending_approval` while its intent awaits a person), bound to the mandate, whose presentation is then used up.
 */
export async function createPaymentToken(
  tenant: Tenant,
  cardId: string,
  request: PaymentTokenRequest,
  approvalPage: ApprovalPage,
): Promise<PaymentTokenView> {
  const { card } = loadCardScope(tenant, cardId);
  const terms = await termsOf(request, tenant.now());
  const spend = mandateSpendOf(card.id, terms, request.mcc, tenant.now());
  if (terms.mpp && !(await importsAsEncryptionKey(terms.mpp.encryptionJwk)))
    throw invalidPaymentRequest(
      '/body/mpp/challenge',
      'request.methodDetails.encryptionJwk',
      'is not an RSA-OAEP-256 public key',
    );
  const mandate =
    request.agentMandate === undefined ? undefined : await presentMandate(tenant, card.customerId, request.agentMandate, spend);
  // From here on nothing waits: what was read before the key's import and the mandate's verification is read again.
  const token = mint(tenant, cardId, request, terms, approvalPage, { input: mandate, spend });
  return viewOf(tenant, token);
}

/** The spend a mandate presented at mint is checked against: the token's full amount, at its merchant, now. */
function mandateSpendOf(cardId: string, terms: TokenTerms, mcc: string | undefined, now: number): MandateSpend {
  const { name, id } = terms.merchant;
  const merchant = { name, ...(id === null ? {} : { id }), ...(mcc === undefined ? {} : { mcc }) };
  return { amount: terms.maxAmount, currency: terms.currency, merchant, cardId, now };
}

async function termsOf(request: PaymentTokenRequest, now: number): Promise<TokenTerms> {
  if (request.mpp) return readCardChallenge(request.mpp.challenge, now);
  if (request.acp) return readAllowance(request.acp.allowance, request.acp.merchantName, now);
  throw new HttpError(400, 'invalid_request', 'body: must have mpp or acp', { field: '/body', reason: 'must have mpp or acp' });
}

function mint(
  tenant: Tenant,
  cardId: string,
  request: PaymentTokenRequest,
  terms: TokenTerms,
  approvalPage: ApprovalPage,
  mandate: { input: MandateInput; spend: MandateSpend },
): PaymentTokenRecord {
  const scope = loadCardScope(tenant, cardId);
  expireCardIfDue(tenant, scope);
  const { card } = scope;
  if (card.status !== 'active') {
    throw new HttpError(
      400,
      'card_not_active',
      `The card is ${card.status}; payment tokens are only minted for an active card.`,
      {
        cardId,
        status: card.status,
      },
    );
  }
  const cardCurrency = balanceOf(tenant, card.customerId).currency.toLowerCase();
  if (terms.currency !== cardCurrency) {
    throw new HttpError(
      400,
      'currency_not_supported',
      `The card spends ${cardCurrency}; the payment asks for ${terms.currency}.`,
      {
        currency: terms.currency,
        cardCurrency,
      },
    );
  }
  const existing = paymentTokens.of(tenant).page({ limit: 1, where: { cardId, binding: bindingOf(terms) } }).items[0];
  if (existing && (isOpen(existing) || existing.status === 'used')) {
    throw new HttpError(
      400,
      'invalid_state',
      `The card already has a payment token for this ${terms.protocol === 'mpp' ? 'challenge' : 'checkout session'} (${existing.id}, ${existing.status}).`,
      { paymentTokenId: existing.id, status: existing.status },
    );
  }
  const gate = gateMandate(tenant, scope, mandate.input, mandate.spend);
  if (gate.declinedBy) throw mandateDeclined(gate.declinedBy);
  const found = findTokenIntent(tenant, scope, terms, request.intentId);
  const bounds = { ...terms, mcc: request.mcc ?? null };
  const decision = decideToken(tenant, scope, bounds, 'intent' in found ? found.intent : null);
  if (decision.decision === 'decline') throw paymentTokenDeclined(decision);

  const now = tenant.now();
  const intent = 'declare' in found ? declareTokenIntent(tenant, scope, terms, approvalPage, now) : found.intent;
  const waits = intent?.status === 'pending_approval';
  const token: PaymentTokenRecord = {
    id: tenant.ids.next('paymentToken'),
    cardId,
    agentId: card.agentId,
    customerId: card.customerId,
    protocol: terms.protocol,
    status: waits ? 'pending_approval' : 'active',
    merchant: terms.merchant,
    mcc: bounds.mcc,
    summary: terms.summary,
    panLastFour: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    maxAmount: terms.maxAmount,
    currency: terms.currency,
    challengeId: terms.challengeId,
    checkoutSessionId: terms.checkoutSessionId,
    intentId: intent?.id ?? null,
    approvalUrl: waits ? (intent.approvalUrl ?? null) : null,
    expiresAt: terms.expiresAt,
    createdAt: now,
    issuedAt: null,
    usedAt: null,
    revokedAt: null,
    rejectedAt: null,
    rejectionReason: null,
    transactionId: null,
    number: null,
    mpp: terms.mpp,
    mandate: mandate.input && 'presentation' in mandate.input ? bindMandate(mandate.input) : null,
  };
  paymentTokens.of(tenant).insert(token);
  gate.usePresentation();
  tenant.emit('payment_token.created', tokenCreatedData(token));
  if (!waits) issueToken(tenant, token);
  scheduleTokenExpiry(tenant, token);
  return token;
}

/** The token with this id in this organization and mode (404 otherwise), with its credential while it is active. */
export function getPaymentToken(tenant: Tenant, tokenId: string): Promise<PaymentTokenView> {
  const token = paymentTokens.of(tenant).get(tokenId);
  if (!token) throw notFound();
  return viewOf(tenant, token);
}

/** The record of a token of this organization and mode (404 otherwise). */
export function requirePaymentToken(tenant: Tenant, tokenId: string): PaymentTokenRecord {
  const token = paymentTokens.of(tenant).get(tokenId);
  if (!token) throw notFound();
  return token;
}

/** A page of the card's tokens, newest first (404 for a card of another organization or mode). */
export async function listPaymentTokens(
  tenant: Tenant,
  cardId: string,
  query: ListQuery & { status?: PaymentTokenStatus | undefined },
): Promise<ListPage<PaymentTokenView>> {
  requireCard(tenant, cardId);
  const page = listPage(paymentTokens.of(tenant), query, { cardId, status: query.status });
  return { ...page, data: await Promise.all(page.data.map((token) => viewOf(tenant, token))) };
}

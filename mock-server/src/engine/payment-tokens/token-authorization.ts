import { notFound } from '../../core/errors.js';
import type { Tenant } from '../../core/tenant.js';
import { balanceOf } from '../../domain/balances.js';
import { loadCardScope } from '../card-scope.js';
import { normalizeName } from '../policy/merge-policies.js';
import type { TransactionRecord } from '../records.js';
import type { MandateInput } from '../mandates/mandate-gate.js';
import { withTokenMandate } from '../mandates/token-mandate.js';
import { type AuthorizationRequest, authorize } from '../transactions/authorize.js';
import type { DeclineReason } from '../types.js';
import { findByNumber, isCryptogramOf } from './network-token.js';
import { tokenAccess } from './token-decision.js';
import { markTokenUsed } from './token-lifecycle.js';
import type { PaymentTokenRecord } from './token-record.js';

/** `POST /simulate/authorize` with a payment token in place of the card. */
export interface TokenAuthorizationRequest extends Omit<AuthorizationRequest, 'cardId'> {
  token: { number: string; cryptogram: string };
}

/**
 * Authorizes the card of a payment token (docs/payment-tokens.md#authorizations): a number this organization and
 * mode never issued is 404, as an unknown card is. The token's own checks come first, and the first that fails
 * declines the transaction with its reason and nothing else; when they pass, the card is authorized as any other
 * spend (every limit, the risk engine, intents: the token's first), the token attesting it, and the AP2 mandate it
 * was minted with standing for a presentation (mandates/token-mandate.ts). An approved authorization uses the token
 * (`payment_token.used`); a declined one leaves it as it was.
 */
export function authorizeWithToken(
  tenant: Tenant,
  request: TokenAuthorizationRequest,
  mandate?: MandateInput,
): TransactionRecord {
  const token = findByNumber(tenant, request.token.number);
  if (!token) throw notFound();
  const scope = loadCardScope(tenant, token.cardId);
  const { token: _presented, ...rest } = request;
  const currency = (request.currency ?? balanceOf(tenant, token.customerId).currency).toLowerCase();
  const declinedBy = tokenDecline(tenant, token, request, currency);
  const txn = authorize(
    tenant,
    { ...rest, cardId: token.cardId },
    {
      paymentTokenId: token.id,
      declinedBy,
      attestation: tokenAccess(scope, token, token.intentId, token.issuedAt ?? token.createdAt),
      intentId: token.intentId,
    },
    withTokenMandate(token.mandate ?? null, mandate),
  );
  if (txn.status === 'pending') markTokenUsed(tenant, token, txn);
  return txn;
}

/** The first of the token's own checks that fails, in the order the spec's `DeclineReason` gives them. */
function tokenDecline(
  tenant: Tenant,
  token: PaymentTokenRecord,
  request: TokenAuthorizationRequest,
  currency: string,
): { reason: DeclineReason; message: string } | null {
  const decline = (reason: DeclineReason, message: string) => ({ reason, message });
  if (!isCryptogramOf(tenant, token, request.token.cryptogram))
    return decline('cryptogram_invalid', "The cryptogram is not the token's.");
  if (token.status === 'revoked') return decline('token_revoked', 'The payment token was revoked.');
  if (token.status === 'used') return decline('token_used', `The payment token already paid (${token.transactionId}).`);
  if (token.status !== 'active' || tenant.now() >= token.expiresAt)
    return decline('token_expired', `The payment token expired at ${new Date(token.expiresAt).toISOString()}.`);
  const merchant = request.merchant;
  const sameMerchant =
    token.merchant.id !== null
      ? merchant.id === token.merchant.id
      : normalizeName(merchant.name) === normalizeName(token.merchant.name);
  if (!sameMerchant) {
    const bound = token.merchant.id !== null ? `merchant id ${token.merchant.id}` : token.merchant.name;
    return decline('token_merchant_mismatch', `The payment token is bound to ${bound}.`);
  }
  if (currency !== token.currency)
    return decline('token_currency_mismatch', `The payment token is bound to ${token.currency}, not ${currency}.`);
  if (request.amount > token.maxAmount)
    return decline('token_amount_exceeded', `The amount ${request.amount} exceeds the payment token's ${token.maxAmount}.`);
  return null;
}

import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { PaymentToken, PaymentTokenCreateParams, PaymentTokenListParams, UserPaymentToken } from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/**
 * One-time network tokens of a card, minted for a merchant's MPP card challenge (its `WWW-Authenticate` value) or an
 * ACP allowance after the spend checks an authorization would meet: bound to the merchant, an amount, a currency,
 * the challenge or checkout session, and an expiry. The agent pays with the token, never with the card's number.
 */
export class PaymentTokens<Paths extends VariantPaths> extends APIResource<Paths> {
  /**
   * Mints a token: `active` with its credential (`mppCredential.authorization` to retry an MPP 402 with, or
   * `networkToken` for an ACP `delegate_payment`), or `pending_approval` (see `approvalUrl`) while a person decides.
   *
   * @example
   * ```ts
   * const answer = await fetch(url);
   * if (answer.status === 402) {
   *   const token = await cardrail.paymentTokens.create(card.id, {
   *     mpp: { challenge: answer.headers.get('WWW-Authenticate') ?? '' },
   *   });
   *   if (token.mppCredential) await fetch(url, { headers: { Authorization: token.mppCredential.authorization } });
   * }
   * ```
   */
  create(
    cardId: string,
    params: PaymentTokenCreateParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, PaymentToken, UserPaymentToken>> {
    return this.send('post', '/cards/{cardId}/payment-tokens', { path: { cardId }, body: params }, options);
  }

  /** The token with this id, its status and bounds; its credential too while it is `active`. */
  retrieve(paymentTokenId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, PaymentToken, UserPaymentToken>> {
    return this.send('get', '/payment-tokens/{paymentTokenId}', { path: { paymentTokenId } }, options);
  }

  /** A page of the card's tokens, newest first; filter by `status`. */
  list(
    cardId: string,
    query?: PaymentTokenListParams,
    options?: RequestOptions,
  ): PagePromise<ByVariant<Paths, PaymentToken, UserPaymentToken>> {
    return this.sendPage('/cards/{cardId}/payment-tokens', { path: { cardId }, query: queryOf(query) }, options);
  }

  /** Ends a `pending_approval` or `active` token: an authorization with it is then declined `token_revoked`. */
  revoke(paymentTokenId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, PaymentToken, UserPaymentToken>> {
    return this.send('post', '/payment-tokens/{paymentTokenId}/revoke', { path: { paymentTokenId } }, options);
  }
}

import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  Card,
  CardCreateParams,
  CardListParams,
  CardPolicySummary,
  CardUpdateParams,
  Credentials,
  CredentialsParams,
  UserCard,
  UserCardCreateParams,
  UserCardListParams,
  UserCardUpdateParams,
} from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/**
 * Virtual cards: issue, read, update, freeze, close, their policy summary and credentials. Each method sends one
 * operation; its parameter and result types are the spec's, checked against the generated types in the SDK's tests.
 */
export class Cards<Paths extends VariantPaths> extends APIResource<Paths> {
  /**
   * Issues a virtual card.
   *
   * @example
   * ```ts
   * const card = await cardrail.cards.create({ customerId: customer.id, agentId: agent.id, type: 'virtual', usage: 'multi' });
   * ```
   */
  create(
    params: ByVariant<Paths, CardCreateParams, UserCardCreateParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Card, UserCard>> {
    return this.send('post', '/cards', { body: params }, options);
  }

  /** The card with this id (never its full number: see `credentials`). */
  retrieve(cardId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Card, UserCard>> {
    return this.send('get', '/cards/{cardId}', { path: { cardId } }, options);
  }

  /** Changes the card's status (`frozen` freezes it, `active` unfreezes it), policy, billing or configuration. */
  update(
    cardId: string,
    params: ByVariant<Paths, CardUpdateParams, UserCardUpdateParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Card, UserCard>> {
    return this.send('patch', '/cards/{cardId}', { path: { cardId }, body: params }, options);
  }

  /** A page of cards, newest first; iterate it to walk every following page. */
  list(
    query?: ByVariant<Paths, CardListParams, UserCardListParams>,
    options?: RequestOptions,
  ): PagePromise<ByVariant<Paths, Card, UserCard>> {
    return this.sendPage('/cards', { query: queryOf(query) }, options);
  }

  /** Freezes the card: authorizations are declined `card_frozen` until it is updated back to active. */
  freeze(cardId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Card, UserCard>> {
    return this.send('post', '/cards/{cardId}/freeze', { path: { cardId } }, options);
  }

  /** Closes the card for good. */
  close(cardId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Card, UserCard>> {
    return this.send('post', '/cards/{cardId}/close', { path: { cardId } }, options);
  }

  /** The effective spend policy of the card (customer, agent and card policies combined). */
  policy(cardId: string, options?: RequestOptions): APIPromise<CardPolicySummary> {
    return this.send('get', '/cards/{cardId}/policy', { path: { cardId } }, options);
  }

  /** Reveals PAN, CVC and expiry; records a credential access event and opens the attestation window. */
  credentials(cardId: string, params?: CredentialsParams, options?: RequestOptions): APIPromise<Credentials> {
    return this.send('post', '/cards/{cardId}/credentials', { path: { cardId }, body: params }, options);
  }
}

import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Virtual cards: issue, read, update, freeze, close, their policy summary and credentials. */
export class Cards<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Issues a virtual card. */
  create(...[body, options]: BodyArgs<Op<Paths, '/cards', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/cards', 'post'>>> {
    return this.request('post', '/cards', { body }, options);
  }

  /** The card with this id (never its full number: see `credentials`). */
  retrieve(cardId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}', 'get'>>> {
    return this.request('get', '/cards/{cardId}', { path: { cardId } }, options);
  }

  /** Changes the card's status (`frozen` freezes it, `active` unfreezes it), policy, billing or configuration. */
  update(
    cardId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/cards/{cardId}', 'patch'>>
  ): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}', 'patch'>>> {
    return this.request('patch', '/cards/{cardId}', { path: { cardId }, body }, options);
  }

  /** A page of cards, newest first; iterate it to walk every following page. */
  list(...[query, options]: QueryArgs<Op<Paths, '/cards', 'get'>>): PagePromise<ListItem<Op<Paths, '/cards', 'get'>>> {
    return this.requestPage('/cards', { query }, options);
  }

  /** Freezes the card: authorizations are declined `card_frozen` until it is updated back to active. */
  freeze(cardId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}/freeze', 'post'>>> {
    return this.request('post', '/cards/{cardId}/freeze', { path: { cardId } }, options);
  }

  /** Closes the card for good. */
  close(cardId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}/close', 'post'>>> {
    return this.request('post', '/cards/{cardId}/close', { path: { cardId } }, options);
  }

  /** The effective spend policy of the card (customer, agent and card policies combined). */
  policy(cardId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}/policy', 'get'>>> {
    return this.request('get', '/cards/{cardId}/policy', { path: { cardId } }, options);
  }

  /** Reveals PAN, CVC and expiry; records a credential access event and opens the attestation window. */
  credentials(
    cardId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/cards/{cardId}/credentials', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/cards/{cardId}/credentials', 'post'>>> {
    return this.request('post', '/cards/{cardId}/credentials', { path: { cardId }, body }, options);
  }
}

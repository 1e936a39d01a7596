import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

const byCardId = (cardId: string) => ({ cardId });

/** Virtual cards: issue, read, update, freeze, close, their policy summary and credentials. */
export class Cards<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Issues a virtual card. */
  readonly create = this.callWithBody('post', '/cards');

  /** The card with this id (never its full number: see `credentials`). */
  readonly retrieve = this.call('get', '/cards/{cardId}', byCardId);

  /** Changes the card's status (`frozen` freezes it, `active` unfreezes it), policy, billing or configuration. */
  readonly update = this.callWithBody('patch', '/cards/{cardId}', byCardId);

  /** A page of cards, newest first; iterate it to walk every following page. */
  readonly list = this.paged('/cards');

  /** Freezes the card: authorizations are declined `card_frozen` until it is updated back to active. */
  readonly freeze = this.call('post', '/cards/{cardId}/freeze', byCardId);

  /** Closes the card for good. */
  readonly close = this.call('post', '/cards/{cardId}/close', byCardId);

  /** The effective spend policy of the card (customer, agent and card policies combined). */
  readonly policy = this.call('get', '/cards/{cardId}/policy', byCardId);

  /** Reveals PAN, CVC and expiry; records a credential access event and opens the attestation window. */
  readonly credentials = this.callWithBody('post', '/cards/{cardId}/credentials', byCardId);
}

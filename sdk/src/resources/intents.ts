import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

const byIntentId = (intentId: string) => ({ intentId });

/** Intents declare a purchase before it happens, so authorizations can be matched, approved or rejected. */
export class Intents<Paths extends VariantPaths> extends APIResource<Paths> {
  /**
   * Declares a purchase before it happens; `pending_approval` when the card requires approval.
   *
   * @example
   * ```ts
   * const intent = await cardrail.intents.create({
   *   cardId: card.id,
   *   summary: 'GPU credits',
   *   expectedAmount: 2_500,
   *   expectedMerchant: 'OpenAI',
   * });
   * ```
   */
  readonly create = this.callWithBody('post', '/intents');

  /** The intent with this id and its status (`active`, `pending_approval`, `matched`, ...). */
  readonly retrieve = this.call('get', '/intents/{intentId}', byIntentId);

  /** A page of intents, newest first. */
  readonly list = this.paged('/intents');

  /** Approves an intent that is pending human approval. */
  readonly approve = this.call('post', '/intents/{intentId}/approve', byIntentId);

  /** Rejects an intent pending approval: it becomes `rejected` and blocks the spend. */
  readonly reject = this.callWithBody('post', '/intents/{intentId}/reject', byIntentId);
}

import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { Intent, IntentCreateParams, IntentListParams, IntentRejectParams } from '../generated/api-names.js';
import type { VariantPaths } from './variant-paths.js';

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
  create(params: IntentCreateParams, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents', { body: params }, options);
  }

  /** The intent with this id and its status (`active`, `pending_approval`, `matched`, ...). */
  retrieve(intentId: string, options?: RequestOptions): APIPromise<Intent> {
    return this.send('get', '/intents/{intentId}', { path: { intentId } }, options);
  }

  /** A page of intents, newest first. */
  list(query?: IntentListParams, options?: RequestOptions): PagePromise<Intent> {
    return this.sendPage('/intents', { query: queryOf(query) }, options);
  }

  /** Approves an intent that is pending human approval. */
  approve(intentId: string, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents/{intentId}/approve', { path: { intentId } }, options);
  }

  /** Rejects an intent pending approval: it becomes `rejected` and blocks the spend. */
  reject(intentId: string, params?: IntentRejectParams, options?: RequestOptions): APIPromise<Intent> {
    return this.send('post', '/intents/{intentId}/reject', { path: { intentId }, body: params }, options);
  }
}

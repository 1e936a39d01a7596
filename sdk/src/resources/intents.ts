import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
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
  create(...[body, options]: BodyArgs<Op<Paths, '/intents', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/intents', 'post'>>> {
    return this.request('post', '/intents', { body }, options);
  }

  /** The intent with this id and its status (`active`, `pending_approval`, `matched`, ...). */
  retrieve(intentId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/intents/{intentId}', 'get'>>> {
    return this.request('get', '/intents/{intentId}', { path: { intentId } }, options);
  }

  /** A page of intents, newest first. */
  list(...[query, options]: QueryArgs<Op<Paths, '/intents', 'get'>>): PagePromise<ListItem<Op<Paths, '/intents', 'get'>>> {
    return this.requestPage('/intents', { query }, options);
  }

  /** Approves an intent that is pending human approval. */
  approve(
    intentId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/intents/{intentId}/approve', 'post'>>> {
    return this.request('post', '/intents/{intentId}/approve', { path: { intentId } }, options);
  }

  /** Rejects an intent pending approval: it becomes `rejected` and blocks the spend. */
  reject(
    intentId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/intents/{intentId}/reject', 'post'>>
  ): APIPromise<ResponseBody<Op<Paths, '/intents/{intentId}/reject', 'post'>>> {
    return this.request('post', '/intents/{intentId}/reject', { path: { intentId }, body }, options);
  }
}

import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Card transactions (authorizations and what became of them). Read-only. */
export class Transactions<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The transaction with this id. */
  retrieve(
    transactionId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/transactions/{transactionId}', 'get'>>> {
    return this.request('get', '/transactions/{transactionId}', { path: { transactionId } }, options);
  }

  /** A page of transactions, newest first; filter by `cardId`, `agentId` or `status`. */
  list(
    ...[query, options]: QueryArgs<Op<Paths, '/transactions', 'get'>>
  ): PagePromise<ListItem<Op<Paths, '/transactions', 'get'>>> {
    return this.requestPage('/transactions', { query }, options);
  }
}

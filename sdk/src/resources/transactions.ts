import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { Transaction, TransactionListParams, UserTransaction } from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** Card transactions (authorizations and what became of them). Read-only. */
export class Transactions<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The transaction with this id. */
  retrieve(transactionId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Transaction, UserTransaction>> {
    return this.send('get', '/transactions/{transactionId}', { path: { transactionId } }, options);
  }

  /** A page of transactions, newest first; filter by `cardId`, `agentId` or `status`. */
  list(query?: TransactionListParams, options?: RequestOptions): PagePromise<ByVariant<Paths, Transaction, UserTransaction>> {
    return this.sendPage('/transactions', { query: queryOf(query) }, options);
  }
}

import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

/** Card transactions (authorizations and what became of them). Read-only. */
export class Transactions<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The transaction with this id. */
  readonly retrieve = this.call('get', '/transactions/{transactionId}', (transactionId: string) => ({ transactionId }));

  /** A page of transactions, newest first; filter by `cardId`, `agentId` or `status`. */
  readonly list = this.paged('/transactions');
}

import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { UserWithdrawal, Withdrawal, WithdrawalCreateParams } from '../generated/api-names.js';
import { OWNER_ROUTES, ownerIds } from './owner-routes.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** On-chain withdrawals from a customer's (user's) balance. */
export class Withdrawals<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Withdraws from the balance of `ownerId`: a customer id (`Cardrail`) or a user id (`CardrailUsers`). */
  create(
    ownerId: string,
    params: WithdrawalCreateParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('post', OWNER_ROUTES.withdrawals, { path: ownerIds(ownerId), body: params }, options);
  }

  /** The withdrawal with this id and its status. */
  retrieve(withdrawalId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('get', '/withdrawals/{withdrawalId}', { path: { withdrawalId } }, options);
  }
}

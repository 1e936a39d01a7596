import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { UserWithdrawal, Withdrawal, WithdrawalCreateParams } from '../generated/api-names.js';
import { OwnerResource } from './owner-routes.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** On-chain withdrawals from a customer's (user's) balance. */
export class Withdrawals<Paths extends VariantPaths> extends OwnerResource<Paths> {
  /** Withdraws from the balance of `ownerId`: a customer id (`Cardrail`) or a user id (`CardrailUsers`). */
  create(
    ownerId: string,
    params: WithdrawalCreateParams,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('post', this.route('withdrawals'), { path: this.ownerPath(ownerId), body: params }, options);
  }

  /** The withdrawal with this id and its status. */
  retrieve(withdrawalId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Withdrawal, UserWithdrawal>> {
    return this.send('get', '/withdrawals/{withdrawalId}', { path: { withdrawalId } }, options);
  }
}

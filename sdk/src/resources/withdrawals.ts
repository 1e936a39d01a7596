import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { Operation as Op, RequestBody, ResponseBody } from '../core/operation-types.js';
import type { CustomerPaths, VariantPaths } from './variant-paths.js';

/** Where a withdrawal is created: under the customer in one variant, under the user in the other. */
type OwnerPath<Paths> = Paths extends CustomerPaths ? '/customers/{customerId}/withdrawals' : '/users/{userId}/withdrawals';
type CreateWithdrawal<Paths extends VariantPaths> = Op<Paths, OwnerPath<Paths> & keyof Paths, 'post'>;

export interface WithdrawalOwner<Paths extends VariantPaths> {
  path: OwnerPath<Paths> & keyof Paths & string;
  param: 'customerId' | 'userId';
}

/** On-chain withdrawals from a customer's (user's) balance. */
export class Withdrawals<Paths extends VariantPaths> extends APIResource<Paths> {
  readonly #owner: WithdrawalOwner<Paths>;

  constructor(core: ClientCore<Paths>, owner: WithdrawalOwner<Paths>) {
    super(core);
    this.#owner = owner;
  }

  /** Withdraws from the balance of `ownerId`: a customer id (`Cardrail`) or a user id (`CardrailUsers`). */
  create(ownerId: string, body: RequestBody<CreateWithdrawal<Paths>>, options?: RequestOptions): APIPromise<ResponseBody<CreateWithdrawal<Paths>>> {
    return this.request('post', this.#owner.path, { path: { [this.#owner.param]: ownerId }, body }, options);
  }

  retrieve(withdrawalId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/withdrawals/{withdrawalId}', 'get'>>> {
    return this.request('get', '/withdrawals/{withdrawalId}', { path: { withdrawalId } }, options);
  }
}

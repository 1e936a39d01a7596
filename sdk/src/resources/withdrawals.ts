import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, Operation as Op, ResponseBody } from '../core/operation-types.js';
import type { OwnerRoute, OwnerRoutes } from './owner-routes.js';
import type { VariantPaths } from './variant-paths.js';

type CreateWithdrawal<Paths extends VariantPaths> = Op<Paths, OwnerRoute<Paths, 'withdrawals'>, 'post'>;

/** On-chain withdrawals from a customer's (user's) balance. */
export class Withdrawals<Paths extends VariantPaths> extends APIResource<Paths> {
  readonly #routes: OwnerRoutes<Paths>;

  constructor(core: ClientCore<Paths>, routes: OwnerRoutes<Paths>) {
    super(core);
    this.#routes = routes;
  }

  /** Withdraws from the balance of `ownerId`: a customer id (`Cardrail`) or a user id (`CardrailUsers`). */
  create(
    ownerId: string,
    ...[body, options]: BodyArgs<CreateWithdrawal<Paths>>
  ): APIPromise<ResponseBody<CreateWithdrawal<Paths>>> {
    const path = this.#routes.withdrawals as OwnerRoute<Paths, 'withdrawals'>;
    return this.request('post', path, { path: { [this.#routes.param]: ownerId }, body }, options);
  }

  /** The withdrawal with this id and its status. */
  retrieve(
    withdrawalId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/withdrawals/{withdrawalId}', 'get'>>> {
    return this.request('get', '/withdrawals/{withdrawalId}', { path: { withdrawalId } }, options);
  }
}

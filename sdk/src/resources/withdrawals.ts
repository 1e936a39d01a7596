import { OwnerResource } from './owner-routes.js';
import type { VariantPaths } from './variant-paths.js';

/** On-chain withdrawals from a customer's (user's) balance. */
export class Withdrawals<Paths extends VariantPaths> extends OwnerResource<Paths> {
  /** Withdraws from the balance of `ownerId`: a customer id (`Cardrail`) or a user id (`CardrailUsers`). */
  readonly create = this.callWithBody('post', ...this.routeById('withdrawals'));

  /** The withdrawal with this id and its status. */
  readonly retrieve = this.call('get', '/withdrawals/{withdrawalId}', (withdrawalId: string) => ({ withdrawalId }));
}

import type { CustomerPaths, UserPaths, VariantPaths } from './variant-paths.js';
import { OwnerResource } from './owner-routes.js';

/** Account holders that own agents and cards and hold balances: `customers` or `users`, depending on the variant. */
export class Owners<Paths extends VariantPaths> extends OwnerResource<Paths> {
  /** Creates the customer (user) and starts KYC. */
  readonly create = this.callWithBody('post', this.route('collection'));

  /** The customer (user) with this id. */
  readonly retrieve = this.call('get', ...this.routeById('item'));

  /** Changes the customer's (user's) email, phone, name, policy or metadata. */
  readonly update = this.callWithBody('patch', ...this.routeById('item'));

  /** A page of customers (users), newest first. */
  readonly list = this.paged(this.route('collection'));

  /** Marks the customer (user) `deleted`; its agents and cards are closed. */
  readonly delete = this.call('delete', ...this.routeById('item'));

  /** The balance of the customer (user), in cents: `available` to spend, `pending` held, `posted` settled. */
  readonly balances = this.call('get', ...this.routeById('balances'));
}

/** Customers own agents and cards and hold balances (customer variant). */
export type Customers = Owners<CustomerPaths>;
/** Users own agents and cards and hold balances (user variant; a user is a customer). */
export type Users = Owners<UserPaths>;

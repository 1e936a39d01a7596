import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { CustomerPaths, UserPaths, VariantPaths } from './variant-paths.js';

/**
 * The one place the two variants name their account holder differently: customers own agents, cards and balances in
 * one variant, users in the other. Everything else is at the same path in both specs.
 */
export const CUSTOMER_ROUTES = {
  collection: '/customers',
  item: '/customers/{customerId}',
  balances: '/customers/{customerId}/balances',
  withdrawals: '/customers/{customerId}/withdrawals',
  param: 'customerId',
} as const satisfies OwnerRouteTable<CustomerPaths>;

export const USER_ROUTES = {
  collection: '/users',
  item: '/users/{userId}',
  balances: '/users/{userId}/balances',
  withdrawals: '/users/{userId}/withdrawals',
  param: 'userId',
} as const satisfies OwnerRouteTable<UserPaths>;

type RouteName = 'collection' | 'item' | 'balances' | 'withdrawals';

/** Every route must be a path of the variant's generated spec, so a renamed path breaks the build here. */
type OwnerRouteTable<Paths> = { readonly [Name in RouteName]: keyof Paths & string } & { readonly param: string };

/** The owner routes of a variant, with their literal paths so that method types can look the operations up. */
export type OwnerRoutes<Paths> = Paths extends CustomerPaths ? typeof CUSTOMER_ROUTES : typeof USER_ROUTES;

/** One owner route of a variant, known to be a key of its paths. */
type OwnerRoute<Paths, Name extends RouteName> = OwnerRoutes<Paths>[Name] & keyof Paths & string;

/** A resource with operations under the variant's owner routes; its declarations read the routes it was given. */
export abstract class OwnerResource<Paths extends VariantPaths> extends APIResource<Paths> {
  readonly #routes: OwnerRoutes<Paths>;

  constructor(core: ClientCore<Paths>, routes: OwnerRoutes<Paths>) {
    super(core);
    this.#routes = routes;
  }

  /** The variant's path of an owner route (`/customers` or `/users`). */
  protected route<Name extends RouteName>(name: Name): OwnerRoute<Paths, Name> {
    return this.#routes[name] as OwnerRoute<Paths, Name>;
  }

  /** The path values of an owner route with an id: `{ customerId }` or `{ userId }`, the `param` of the table. */
  protected ownerPath(ownerId: string): Record<string, string> {
    return { [this.#routes.param]: ownerId };
  }
}

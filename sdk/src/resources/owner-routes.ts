import type { CustomerPaths, UserPaths } from './variant-paths.js';

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
export type OwnerRoute<Paths, Name extends RouteName> = OwnerRoutes<Paths>[Name] & keyof Paths & string;

/**
 * The one place the two variants name their account holder differently: customers own agents, cards and balances in
 * one variant, users in the other. Everything else is at the same path in both specs. Each route is the pair of
 * paths, checked against each variant's generated paths where a resource sends to it.
 */
export const OWNER_ROUTES = {
  collection: { customer: '/customers', user: '/users' },
  item: { customer: '/customers/{customerId}', user: '/users/{userId}' },
  balances: { customer: '/customers/{customerId}/balances', user: '/users/{userId}/balances' },
  withdrawals: { customer: '/customers/{customerId}/withdrawals', user: '/users/{userId}/withdrawals' },
  mandateIssuers: { customer: '/customers/{customerId}/mandate-issuers', user: '/users/{userId}/mandate-issuers' },
} as const;

/** The path ids of an owner route, under the name each variant gives it (the path takes the one it has). */
export function ownerIds(ownerId: string): { customerId: string; userId: string } {
  return { customerId: ownerId, userId: ownerId };
}

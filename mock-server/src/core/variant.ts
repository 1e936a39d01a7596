/**
 * The two variants of the API (docs/variants.md): the authentication header picks one.
 * `customer`: `Authorization: Bearer`, general event envelope. `user`: `Api-Key`, event-catalog envelope.
 */
export type Variant = 'customer' | 'user';

export const VARIANTS: readonly Variant[] = ['customer', 'user'];

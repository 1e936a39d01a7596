import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { Variant } from '../core/variant.js';

/**
 * The organization of any API key, in place of a client: the key the app under test uses with its own client. The
 * variant is the one given, else the one the key's organization was first used through, else `customer`.
 */
export interface ByKey<V extends Variant> {
  /** An `sk_test_...` key: known to the mock already, or new (its organization is created on first use). */
  apiKey: string;
  /** `customer` (Bearer) or `user` (`Api-Key`): also types the events and objects. Default: inferred. */
  variant?: V;
}

/** A client as the test kit's helpers take it: `{ client }`, or the organization of a key in its place. */
export type ClientOrKey = { client: Cardrail | CardrailUsers } | ByKey<Variant>;

/** Options of a helper that takes `{ client }`, or `{ apiKey, variant? }` in its place beside the other options. */
export type WithClientOrKey<Options extends { client: unknown }> = Options | (ByKey<Variant> & Omit<Options, 'client'>);

/** The client the options name: `{ client }` as it is, or the one `make` makes for the key of `{ apiKey, variant? }`. */
export function clientOf<Made>(options: ClientOrKey, make: (key: ByKey<Variant>) => Made): Cardrail | CardrailUsers | Made {
  if ('client' in options) return options.client;
  // Checked at run time too: JavaScript callers get no compile error for a missing key.
  if (typeof options.apiKey !== 'string') throw new TypeError('Pass { client } (made by mock.client()) or { apiKey }.');
  return make({ apiKey: options.apiKey, variant: options.variant });
}

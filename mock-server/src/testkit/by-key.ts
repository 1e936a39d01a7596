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

import type { CustomerApi, UserApi } from '@cardrail/sdk';
import type { EpochMs } from './clock.js';

/**
 * The API's schemas as generated from `spec/` (general variant). Records derive their types from these so a
 * change of the specification shows up as a compile error here instead of a silent drift.
 */
export type ApiSchemas = CustomerApi.components['schemas'];

/** The user variant's schemas (its card, its events), for the user variant's codec. */
export type UserSchemas = UserApi.components['schemas'];

/**
 * An API object as the mock stores it: the schema `T` with every timestamp field (named `*At`, the spec's
 * convention, ISO 8601 on the wire) held as epoch milliseconds, nullable where the schema allows null.
 * Rendering turns them back into ISO strings at the HTTP edge.
 */
export type Stored<T> = {
  [K in keyof T]: K extends `${string}At` ? (null extends T[K] ? EpochMs | null : EpochMs) : T[K];
};

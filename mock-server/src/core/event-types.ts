import type { CustomerApi, UserApi } from '@cardrail/sdk';
import type { catalogTypeOfGeneralType } from '@cardrail/spec/events';
import type { EpochMs } from './clock.js';
import type { KnownKeys } from './known-keys.js';

/** The spec's events as delivered by each variant (its union `Event`), discriminated by `type`. */
type CatalogEvent = UserApi.components['schemas']['AnyEvent'];
type GeneralEvent = CustomerApi.components['schemas']['AnyEvent'];

type CatalogType = CatalogEvent['type'];
type GeneralType = GeneralEvent['type'];
type RenamedGeneralType = keyof typeof catalogTypeOfGeneralType;

type DataOf<E, T> = KnownKeys<Extract<E, { type: T }> extends { data: infer Data } ? Data : never>;

/** The general (customer-variant) name of a stored type: itself unless the spec marks a rename. */
type GeneralTypeOf<T> = {
  [G in RenamedGeneralType]: (typeof catalogTypeOfGeneralType)[G] extends T ? G : never;
}[RenamedGeneralType] extends infer G
  ? [G] extends [never]
    ? T
    : G
  : T;

/**
 * The types events are stored under: the event catalog's names (user variant), plus the general-only types
 * (`intent.created`). Each variant names them in its own way when it renders them (src/variants).
 */
export type StoredEventType = CatalogType | Exclude<GeneralType, RenamedGeneralType>;

/**
 * The data an event is stored with: everything either variant's schema for it holds (the catalog's data, plus
 * what the general description adds, such as the `merchant` object of `transaction.created`). Each variant keeps
 * the fields of its own schema when it renders the event.
 */
export type EventData<T extends StoredEventType> = (T extends CatalogType ? DataOf<CatalogEvent, T> : unknown) &
  (GeneralTypeOf<T> extends GeneralType ? DataOf<GeneralEvent, GeneralTypeOf<T>> : unknown);

/** `test` or `live`: the mode of the key that caused an event; the modes' data never mix. */
export type Mode = 'test' | 'live';

/** One event as the mock stores it, once, whatever variant renders it. */
export interface StoredEvent<T extends StoredEventType = StoredEventType> {
  /** `evt_...`; retried deliveries carry the same id. */
  id: string;
  /** The catalog type name, e.g. `transaction.authorized`. */
  type: T;
  /** The organization of the key that caused the event. */
  organizationId: string;
  /** The mode of that key. */
  mode: Mode;
  /** When it happened on the organization's test clock, in epoch milliseconds. */
  createdAt: EpochMs;
  /** The event's data, typed by `type`. */
  data: EventData<T>;
}

/** Any stored event, discriminated by `type`: narrowing on `type` types its `data`. */
export type AnyStoredEvent = { [T in StoredEventType]: StoredEvent<T> }[StoredEventType];

import {
  type CustomerEventType,
  catalogTypeOfGeneralType,
  customerEventTypes,
  type UserEventType,
  userEventTypes,
} from '@cardrail/spec/events';
import { invalidRequest } from '../core/errors.js';
import type { StoredEventType } from '../core/event-types.js';
import type { Variant } from '../core/variant.js';

/** Catalog type -> the general name the customer variant uses instead (the spec's `x-cardrail-catalog-type`). */
const GENERAL_NAME_OF_CATALOG_TYPE: ReadonlyMap<string, string> = new Map(
  Object.entries(catalogTypeOfGeneralType).map(([general, catalog]) => [catalog, general]),
);

/**
 * Which event types each variant has (the `webhooks` of its spec document) and what each stored event is called
 * there. A stored type a variant lacks (`intent.created` in the user variant) is neither delivered nor listed
 * through that variant. Built from the spec's event lists (@cardrail/spec/events).
 */
export class EventNaming {
  readonly #types: Record<Variant, ReadonlySet<string>> = {
    customer: new Set<string>(customerEventTypes),
    user: new Set<string>(userEventTypes),
  };
  readonly #stored: ReadonlySet<StoredEventType>;
  readonly #storedOf: Record<Variant, ReadonlyMap<string, StoredEventType>>;

  constructor() {
    const generalToCatalog: Readonly<Record<string, StoredEventType>> = catalogTypeOfGeneralType;
    // The stored types are the catalog's plus the general-only ones: exactly StoredEventType, which is derived from
    // the same spec lists.
    this.#stored = new Set<StoredEventType>([
      ...userEventTypes,
      ...customerEventTypes.map((type) => generalToCatalog[type] ?? (type as StoredEventType)),
    ]);
    const storedOf = { customer: new Map<string, StoredEventType>(), user: new Map<string, StoredEventType>() };
    for (const type of this.#stored) {
      for (const variant of ['customer', 'user'] as const) {
        const name = this.nameIn(variant, type);
        if (name !== undefined) storedOf[variant].set(name, type);
      }
    }
    this.#storedOf = storedOf;
  }

  /** The variant's name for a stored (catalog-named) type, or undefined when the variant has no such event. */
  nameIn(variant: Variant, storedType: StoredEventType): string | undefined {
    const name = variant === 'customer' ? (GENERAL_NAME_OF_CATALOG_TYPE.get(storedType) ?? storedType) : storedType;
    return this.#types[variant].has(name) ? name : undefined;
  }

  /** The stored type of an event type as the variant names it, or undefined when the variant has no such type. */
  storedTypeOf(variant: Variant, name: string): StoredEventType | undefined {
    return this.#storedOf[variant].get(name);
  }

  /** Every event type of the variant, as named there. */
  typesOf(variant: Variant): ReadonlySet<string> {
    return this.#types[variant];
  }

  /** Whether `name` is an event type of the variant as named there, or `*` (then typed as one of its names). */
  isTypeName<V extends Variant>(variant: V, name: string): name is EventTypeName<V> {
    return name === '*' || this.#types[variant].has(name);
  }

  /** Every type events are stored under. */
  storedTypes(): ReadonlySet<StoredEventType> {
    return this.#stored;
  }
}

/** The one naming table: the spec's event lists do not change at run time. */
export const eventNaming = new EventNaming();

/** Event type names of a variant (as validated against its spec) as stored types; `*` stays `*`. */
export function storedEventTypes(variant: Variant, names: readonly string[]): (StoredEventType | '*')[] {
  return names.map((name, index) => {
    if (name === '*') return '*';
    const stored = eventNaming.storedTypeOf(variant, name);
    if (stored === undefined)
      throw invalidRequest(`/body/events/${index}`, `is not an event type of the ${variant} variant: ${name}`);
    return stored;
  });
}

/** An event type as a variant names it, or `*`. */
export type EventTypeName<V extends Variant> = (V extends 'customer' ? CustomerEventType : UserEventType) | '*';

/** Stored event types as a variant names them; types the variant does not have are left out. */
export function eventTypeNames<V extends Variant>(variant: V, types: readonly (StoredEventType | '*')[]): EventTypeName<V>[] {
  return types.flatMap((type) => {
    const name = type === '*' ? '*' : eventNaming.nameIn(variant, type);
    // nameIn answers only names of the variant's own event list, which is what EventTypeName<V> is made of.
    return name === undefined ? [] : [name as EventTypeName<V>];
  });
}

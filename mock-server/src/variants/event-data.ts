import type { AnyStoredEvent } from '../core/event-types.js';
import { VARIANTS, type Variant } from '../core/variant.js';
import { eventNaming } from '../core/event-naming.js';
import { eventDataSchemaFields } from '../spec/generated/event-data-fields.js';

/** `card.auto_frozen` -> `CardAutoFrozenEventData`: the spec's name of an event type's data schema. */
function dataSchemaName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}EventData`;
}

function fieldsIn(variant: Variant, type: string): Set<string> {
  // Generated from the spec's schemas (src/spec/generated), so that no document is parsed at start.
  return new Set(eventDataSchemaFields[variant][dataSchemaName(type)] ?? []);
}

/**
 * Per variant, the stored types whose stored data holds fields the variant's schema lacks, with the fields it has.
 * Stored data has what either variant's schema of the event has (such as the general `merchant` object of an
 * authorization); this is read from the spec on the first event rendered, not at start.
 */
let narrowed: Record<Variant, Map<string, ReadonlySet<string>>> | undefined;

function narrowedFields(): Record<Variant, Map<string, ReadonlySet<string>>> {
  if (narrowed) return narrowed;
  const found: Record<Variant, Map<string, ReadonlySet<string>>> = { customer: new Map(), user: new Map() };
  for (const storedType of eventNaming.storedTypes()) {
    const own = VARIANTS.map((variant) => {
      const name = eventNaming.nameIn(variant, storedType);
      return name === undefined ? undefined : fieldsIn(variant, name);
    });
    const all = new Set(own.flatMap((fields) => (fields ? [...fields] : [])));
    VARIANTS.forEach((variant, i) => {
      const fields = own[i];
      if (fields && fields.size < all.size) found[variant].set(storedType, fields);
    });
  }
  narrowed = found;
  return found;
}

/** The event's data with the fields of the variant's own schema of it. */
export function eventDataIn(variant: Variant, event: AnyStoredEvent): object {
  const fields = narrowedFields()[variant].get(event.type);
  if (fields === undefined) return event.data;
  return Object.fromEntries(Object.entries(event.data).filter(([key]) => fields.has(key)));
}

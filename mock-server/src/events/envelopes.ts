import { toIso } from '../core/clock.js';
import type { AnyStoredEvent } from '../core/event-types.js';
import { VARIANTS, type Variant } from '../core/variant.js';
import type { SpecDocuments } from '../spec/documents.js';
import type { EventRenderer } from '../webhooks/dispatcher.js';
import type { EventNaming } from './naming.js';

/**
 * Renders a stored event in a variant's envelope: the general envelope (`createdAt` ISO 8601, general type
 * names) for the customer variant, the event-catalog envelope (`organizationId`, `createdAt` epoch ms) for the
 * user variant. The same event id in both; the data keeps the fields of the variant's own schema of that event.
 */
export function createEventRenderer(naming: EventNaming, documents: SpecDocuments): EventRenderer {
  const fieldsOf = dataFields(naming, documents);
  return (event: AnyStoredEvent, variant: Variant) => {
    const type = naming.nameIn(variant, event.type);
    if (type === undefined) return undefined;
    const data = project(event.data, fieldsOf[variant].get(type));
    if (variant === 'customer') {
      return { type, envelope: { id: event.id, type, createdAt: toIso(event.createdAt), data } };
    }
    return {
      type,
      envelope: { id: event.id, type, organizationId: event.organizationId, createdAt: event.createdAt, data },
    };
  };
}

/**
 * Per variant and event type (as named there), the data fields its schema has, for the types where the stored data
 * holds more (the stored data has what either variant's schema has, such as the general `merchant` object).
 */
function dataFields(naming: EventNaming, documents: SpecDocuments): Record<Variant, Map<string, ReadonlySet<string>>> {
  const fieldsIn = (variant: Variant, type: string): Set<string> => {
    const name = `${type.split(/[._]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')}EventData`;
    const schema = documents[variant].components?.schemas?.[name] as { properties?: Record<string, unknown> } | undefined;
    return new Set(Object.keys(schema?.properties ?? {}));
  };
  const result: Record<Variant, Map<string, ReadonlySet<string>>> = { customer: new Map(), user: new Map() };
  for (const storedType of naming.storedTypes()) {
    const names = VARIANTS.map((variant) => naming.nameIn(variant, storedType));
    const fields = VARIANTS.map((variant, i) => (names[i] === undefined ? new Set<string>() : fieldsIn(variant, names[i] as string)));
    const stored = new Set(fields.flatMap((set) => [...set]));
    VARIANTS.forEach((variant, i) => {
      const name = names[i];
      const own = fields[i] as Set<string>;
      if (name !== undefined && own.size < stored.size) result[variant].set(name, own);
    });
  }
  return result;
}

/** The data without the fields the variant's schema lacks. */
function project(data: object, fields: ReadonlySet<string> | undefined): object {
  if (fields === undefined) return data;
  return Object.fromEntries(Object.entries(data).filter(([key]) => fields.has(key)));
}

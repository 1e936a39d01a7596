import type { Collection, CollectionOptions } from './collection.js';
import type { AnyStoredEvent, Mode, StoredEventType } from './event-types.js';
import type { Variant } from './variant.js';

export type { Mode };

/** Names a stored event in each variant; undefined where the variant has no such event type. */
export interface EventVisibility {
  nameIn(variant: Variant, storedType: StoredEventType): string | undefined;
}

/** Events are kept 30 days of the tenant's test clock, as the service keeps them (docs/events.md#retention). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The events of one organization and mode, newest first. Indexed by what each variant sees and by stored type, so
 * `GET /events` and its `type` filter are O(log n) pages in either variant.
 */
export class EventLog {
  readonly events: Collection<AnyStoredEvent>;

  constructor(
    private readonly naming: EventVisibility,
    collection: (options: CollectionOptions<AnyStoredEvent>) => Collection<AnyStoredEvent>,
  ) {
    this.events = collection({
      filters: {
        customer: (event) => (naming.nameIn('customer', event.type) === undefined ? undefined : 'visible'),
        user: (event) => (naming.nameIn('user', event.type) === undefined ? undefined : 'visible'),
        type: (event) => event.type,
      },
      // Lists read one of these at a time (see visibleTo); combinations would only slow every event's insert.
      indexes: [['customer'], ['user'], ['type']],
      retention: { ms: EVENT_RETENTION_MS, at: (event) => event.createdAt },
    });
  }

  /**
   * The page filter of the events a variant sees: all it has, or those of one stored type (which the variant has:
   * the type comes from its own name of it).
   */
  static visibleTo(variant: Variant, type?: StoredEventType): Record<string, string> {
    return type === undefined ? { [variant]: 'visible' } : { type };
  }

  /** Whether the variant has this event's type at all. */
  isVisibleTo(variant: Variant, event: AnyStoredEvent): boolean {
    return this.naming.nameIn(variant, event.type) !== undefined;
  }

  append(event: AnyStoredEvent): void {
    this.events.insert(event);
  }

  get(id: string): AnyStoredEvent | undefined {
    return this.events.get(id);
  }
}

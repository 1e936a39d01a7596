import { Collection } from './collection.js';
import type { AnyStoredEvent, Mode, StoredEventType } from './event-types.js';
import type { Variant } from './variant.js';

export type { Mode };

/** Names a stored event in each variant; undefined where the variant has no such event type. */
export interface EventVisibility {
  nameIn(variant: Variant, storedType: StoredEventType): string | undefined;
}

/**
 * The events of one organization and mode, newest first. Indexed by what each variant sees and by stored type, so
 * `GET /events` and its `type` filter are O(log n) pages in either variant.
 */
export class EventLog {
  readonly events: Collection<AnyStoredEvent>;

  constructor(
    nextSeq: () => number,
    private readonly naming: EventVisibility,
  ) {
    this.events = new Collection<AnyStoredEvent>(nextSeq, {
      filters: {
        customer: (event) => (naming.nameIn('customer', event.type) === undefined ? undefined : 'visible'),
        user: (event) => (naming.nameIn('user', event.type) === undefined ? undefined : 'visible'),
        type: (event) => event.type,
      },
      // Lists read one of these at a time (see visibleTo); combinations would only slow every event's insert.
      indexes: [['customer'], ['user'], ['type']],
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

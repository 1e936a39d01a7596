import { Collection } from './collection.js';
import type { AnyStoredEvent, Mode, StoredEventType } from './event-types.js';

export type { Mode };

/** Names a stored event in each variant; undefined where the variant has no such event type. */
export interface EventVisibility {
  nameIn(variant: 'customer' | 'user', storedType: StoredEventType): string | undefined;
}

/**
 * The events of one organization and mode, newest first. Indexed per variant (visible at all, and by the
 * variant's type name) so `GET /events` and its `type` filter are O(log n) pages in either variant.
 */
export class EventLog {
  readonly events: Collection<AnyStoredEvent>;

  constructor(nextSeq: () => number, naming: EventVisibility) {
    this.events = new Collection<AnyStoredEvent>(nextSeq, {
      filters: {
        customer: (event) => (naming.nameIn('customer', event.type) === undefined ? undefined : 'visible'),
        customerType: (event) => naming.nameIn('customer', event.type),
        user: (event) => (naming.nameIn('user', event.type) === undefined ? undefined : 'visible'),
        userType: (event) => naming.nameIn('user', event.type),
      },
      // Lists read one of these at a time (see visibleTo); combinations would only slow every event's insert.
      indexes: [['customer'], ['customerType'], ['user'], ['userType']],
    });
  }

  /** The page filter of the events a variant sees: all it has, or those of one type as named there. */
  static visibleTo(variant: 'customer' | 'user', type?: string): Record<string, string> {
    return type === undefined ? { [variant]: 'visible' } : { [`${variant}Type`]: type };
  }

  append(event: AnyStoredEvent): void {
    this.events.insert(event);
  }

  get(id: string): AnyStoredEvent | undefined {
    return this.events.get(id);
  }
}

import type { EpochMs } from './clock.js';
import { Collection } from './collection.js';

export type Mode = 'test' | 'live';

/**
 * One event as the mock stores it, once: the event-catalog type name and `data` in the catalog form
 * (amounts in cents, `*At` fields epoch ms). Each variant renders its own envelope from it.
 */
export interface MockEvent {
  id: string;
  type: string;
  organizationId: string;
  mode: Mode;
  createdAt: EpochMs;
  data: Record<string, unknown>;
  /** The data of the general (customer-variant) envelope, when it differs from `data`. */
  generalData?: Record<string, unknown> | undefined;
}

/** Names a stored event in each variant; undefined where the variant has no such event type. */
export interface EventVisibility {
  nameIn(variant: 'customer' | 'user', storedType: string): string | undefined;
}

/**
 * The events of one organization and mode, newest first. Indexed per variant (visible at all, and by the
 * variant's type name) so `GET /events` and its `type` filter are O(log n) pages in either variant.
 */
export class EventLog {
  readonly events: Collection<MockEvent>;

  constructor(nextSeq: () => number, naming: EventVisibility) {
    this.events = new Collection<MockEvent>(nextSeq, {
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

  append(event: MockEvent): MockEvent {
    return this.events.insert(event);
  }

  get(id: string): MockEvent | undefined {
    return this.events.get(id);
  }
}

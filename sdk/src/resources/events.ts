import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { CustomerEvent, UserEvent } from '../events/cardrail-event.js';
import type { EventListParams, UserEventListParams } from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/**
 * Events as delivered to webhooks, in this variant's envelope, newest first: the same types `constructEvent` returns,
 * so stored and delivered events are handled by the same code.
 */
export class Events<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The event with this id, in this variant's envelope. */
  retrieve(eventId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, CustomerEvent, UserEvent>> {
    return this.send('get', '/events/{eventId}', { path: { eventId } }, options);
  }

  /** A page of events, newest first; filter by `type`. */
  list(
    query?: ByVariant<Paths, EventListParams, UserEventListParams>,
    options?: RequestOptions,
  ): PagePromise<ByVariant<Paths, CustomerEvent, UserEvent>> {
    return this.sendPage('/events', { query: queryOf(query) }, options);
  }
}

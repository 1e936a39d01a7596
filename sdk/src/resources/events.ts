import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { RequestOptions } from '../core/client-options.js';
import type { Operation as Op, QueryArgs } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { CustomerEvent, UserEvent } from '../events/cardrail-event.js';
import type { CustomerPaths, VariantPaths } from './variant-paths.js';

/** The same event types `constructEvent` returns, so stored and delivered events are handled by the same code. */
type VariantEvent<Paths> = Paths extends CustomerPaths ? CustomerEvent : UserEvent;

/** Events as delivered to webhooks, in this variant's envelope, newest first. */
export class Events<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The event with this id, in this variant's envelope. */
  retrieve(eventId: string, options?: RequestOptions): APIPromise<VariantEvent<Paths>> {
    return this.request('get', '/events/{eventId}', { path: { eventId } }, options);
  }

  /** A page of events, newest first; filter by `type`. */
  list(...[query, options]: QueryArgs<Op<Paths, '/events', 'get'>>): PagePromise<VariantEvent<Paths>> {
    return this.requestPage('/events', { query }, options);
  }
}

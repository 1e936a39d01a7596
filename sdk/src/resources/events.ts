import { APIResource, returning } from '../core/api-resource.js';
import type { CustomerEvent, UserEvent } from '../events/cardrail-event.js';
import type { CustomerPaths, VariantPaths } from './variant-paths.js';

/** The same event types `constructEvent` returns, so stored and delivered events are handled by the same code. */
export type VariantEvent<Paths> = Paths extends CustomerPaths ? CustomerEvent : UserEvent;

/** Events as delivered to webhooks, in this variant's envelope, newest first. */
export class Events<Paths extends VariantPaths> extends APIResource<Paths> {
  /** The event with this id, in this variant's envelope. */
  readonly retrieve = this.call('get', '/events/{eventId}', (eventId: string) => ({ eventId }), returning<VariantEvent<Paths>>());

  /** A page of events, newest first; filter by `type`. */
  readonly list = this.paged('/events', undefined, returning<VariantEvent<Paths>>());
}

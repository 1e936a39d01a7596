import type { CustomerApi, UserApi } from '@cardrail/sdk';
import type { KnownKeys } from '../core/known-keys.js';

/** The generated event types intersect each event's `data` with the envelope's open object: keep its own fields. */
type Closed<Event> = Event extends { data: infer Data } ? Omit<Event, 'data'> & { data: KnownKeys<Data> } : never;

/** An event in the general envelope (`createdAt` ISO 8601, general names): as the customer variant sends it. */
export type CustomerWireEvent = Closed<CustomerApi.components['schemas']['AnyEvent']>;
/** An event in the event-catalog envelope (`organizationId`, `createdAt` epoch ms): as the user variant sends it. */
export type UserWireEvent = Closed<UserApi.components['schemas']['AnyEvent']>;

/** An event as either variant sends it, discriminated by `type`. */
export type WireEvent = CustomerWireEvent | UserWireEvent;
/** Every event type name either variant sends (`transaction.created`, `transaction.authorized`, ...). */
export type WireEventType = WireEvent['type'];
/** The event(s) of one type name, in whichever envelopes carry it. */
export type WireEventOfType<Type extends WireEventType> = Extract<WireEvent, { type: Type }>;

import type { CustomerApi, UserApi } from '@cardrail/spec';

type CustomerComponents = CustomerApi.components;
type CustomerWebhooks = CustomerApi.webhooks;
type UserComponents = UserApi.components;
type UserWebhooks = UserApi.webhooks;

/** T without its index signatures, keeping only the properties it names. */
type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * The generated event types intersect each event's `data` with the envelope's open `{ [key: string]: unknown }`, so
 * any misspelt field would compile as `unknown`. Dropping that index signature makes a wrong field a compile error.
 */
type WithClosedData<Event> = Event extends { data: infer Data } ? Omit<Event, 'data'> & { data: KnownKeys<Data> } : never;

/** An event in the general envelope (`createdAt` ISO 8601), as delivered to webhooks created with `Cardrail`. */
export type CustomerEvent = WithClosedData<CustomerComponents['schemas']['AnyEvent']>;
/** An event in the event-catalog envelope (`organizationId`, `createdAt` epoch ms), as delivered to `CardrailUsers` webhooks. */
export type UserEvent = WithClosedData<UserComponents['schemas']['AnyEvent']>;

/** The event type names of the customer variant (what `Cardrail` webhooks subscribe to and receive). */
export type CustomerEventType = CustomerEvent['type'];
/** The event type names of the user variant (what `CardrailUsers` webhooks subscribe to and receive). */
export type UserEventType = UserEvent['type'];

/** Every event of both variants, discriminated by `type`. */
export type CardrailEvent = CustomerEvent | UserEvent;
/** Every event type of both variants, e.g. `'card.frozen'`. */
export type CardrailEventType = CardrailEvent['type'];
/** The event(s) of one type, in whichever envelopes carry it. */
export type CardrailEventOfType<Type extends CardrailEventType> = Extract<CardrailEvent, { type: Type }>;

/** Event types each variant's spec declares under `webhooks:`; the unions above must cover exactly these. */
export type CustomerWebhookEventType = keyof CustomerWebhooks;
export type UserWebhookEventType = keyof UserWebhooks;

import {
  type Cardrail,
  CardrailUsers,
  type CustomerEvent,
  type CustomerEventType,
  constructEvent,
  type UserEvent,
  type UserEventType,
} from '@cardrail/sdk';
import type { InboxRoutes } from './inbox-router.js';

/** The events a client's webhooks receive: the general envelope for `Cardrail`, the catalog envelope for `CardrailUsers`. */
export type EventOf<Client> = Client extends CardrailUsers ? UserEvent : CustomerEvent;

/** The event types a client's webhook can subscribe to, as its variant names them. */
export type EventTypeOf<Client> = EventOf<Client>['type'];

/** What `mock.webhookInbox()` subscribes: the client's organization, to these event types. */
export interface WebhookInboxOptions<Client extends Cardrail | CardrailUsers> {
  /** A client made by `mock.client()`: the inbox subscribes its organization and verifies with its clock. */
  client: Client;
  /** Event types to receive, as the client's variant names them. Default: every type (`*`). */
  events?: (EventTypeOf<Client> | '*')[];
}

/** How `inbox.waitFor` waits. */
export interface WaitForOptions {
  /** How long to wait, in real milliseconds. Default 2000. */
  timeoutMs?: number;
}

/** A webhook of a test organization whose deliveries arrive in-process, verified, as typed events. */
export interface WebhookInbox<Event extends { type: string }> {
  /** The subscription: its id, URL and signing secret. */
  readonly webhook: {
    /** The webhook's id (`wh_...`), as the API answers it. */
    id: string;
    /** Where deliveries go: an in-process address (`https://inbox.cardrail.test/...`) that never leaves the process. */
    url: string;
    /** The signing secret (`whsec_...`) the deliveries are verified with. */
    secret: string;
  };
  /** Every verified event, in arrival order (retries of an event arrive again; dedupe on `id` if needed). */
  readonly events: readonly Event[];
  /** Deliveries that failed verification, with the SDK's reason. A correct mock leaves this empty. */
  readonly rejected: readonly {
    /** Why verification failed: the SDK's error message. */
    reason: string;
    /** The delivery's raw body, as received. */
    body: string;
  }[];
  /**
   * The first event of `type` (and matching `predicate`) that has arrived or arrives within the timeout. Rejects with
   * the types that did arrive when none does.
   */
  waitFor<Type extends Event['type']>(
    type: Type,
    predicate?: (event: Extract<Event, { type: Type }>) => boolean,
    options?: WaitForOptions,
  ): Promise<Extract<Event, { type: Type }>>;
  /** Deletes the webhook; later deliveries no longer arrive. */
  close(): Promise<void>;
}

interface Waiter<Event> {
  matches(event: Event): boolean;
  resolve(event: Event): void;
}

/** What the inbox needs from the mock: the in-process receivers, the clock and the key of a test client. */
export interface InboxHost {
  /** In-process: the mock's router; remote: a receiver listening on 127.0.0.1. */
  router: InboxRoutes;
  /** The test clock of the client's organization, in unix seconds (what signatures carry). */
  nowSeconds(client: Cardrail | CardrailUsers): number | Promise<number>;
  nextId(): string;
}

/**
 * Subscribes the client's organization with a webhook whose deliveries are received in-process, verified with the
 * SDK (`constructEvent`, against the mock's clock) and kept as typed events.
 */
export async function createWebhookInbox<Client extends Cardrail | CardrailUsers>(
  host: InboxHost,
  options: WebhookInboxOptions<Client>,
): Promise<WebhookInbox<EventOf<Client>>> {
  type Event = EventOf<Client>;
  // A client of another mock (or none) has no organization here to subscribe and no clock to verify against.
  await host.nowSeconds(options.client);
  const events: Event[] = [];
  const rejected: { reason: string; body: string }[] = [];
  const waiters = new Set<Waiter<Event>>();
  let secret = '';
  const route = host.router.register(host.nextId(), async (request) => {
    const body = await request.text();
    try {
      // The client's variant decides the envelope, which is what EventOf<Client> names.
      // Both signature schemes the delivery carries (Cardrail-Signature and Standard Webhooks) must hold.
      const event = (await constructEvent({
        payload: body,
        headers: request.headers,
        secret,
        now: await host.nowSeconds(options.client),
      })) as Event;
      events.push(event);
      for (const waiter of waiters) {
        if (waiter.matches(event)) {
          waiters.delete(waiter);
          waiter.resolve(event);
        }
      }
      return new Response(null, { status: 204 });
    } catch (error) {
      rejected.push({ reason: error instanceof Error ? error.message : String(error), body });
      return new Response(null, { status: 400 });
    }
  });
  const description = 'In-process webhook inbox (mock.webhookInbox)';
  const { client } = options;
  // `events` is typed by the client (EventTypeOf<Client>); the branch narrows the client but not that parameter.
  const created =
    client instanceof CardrailUsers
      ? await client.webhooks.create({
          url: route.url,
          events: (options.events ?? ['*']) as (UserEventType | '*')[],
          description,
        })
      : await client.webhooks.create({
          url: route.url,
          events: (options.events ?? ['*']) as (CustomerEventType | '*')[],
          description,
        });
  secret = created.secret;

  return {
    webhook: { id: created.id, url: route.url, secret },
    events,
    rejected,
    waitFor(type, predicate, waitOptions = {}) {
      type Wanted = Extract<Event, { type: typeof type }>;
      const matches = (event: Event): event is Wanted =>
        event.type === type && (predicate === undefined || predicate(event as Wanted));
      const arrived = events.find(matches);
      if (arrived) return Promise.resolve(arrived);
      const timeoutMs = waitOptions.timeoutMs ?? 2000;
      return new Promise<Wanted>((resolve, reject) => {
        const waiter: Waiter<Event> = {
          matches,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event as Wanted);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = [...new Set(events.map((event) => event.type))];
          const problems =
            rejected.length > 0 ? `; ${rejected.length} delivery(ies) failed verification: ${rejected[0]?.reason}` : '';
          reject(
            new Error(
              `No ${type} event${predicate ? ' matching the predicate' : ''} arrived within ${timeoutMs} ms; ` +
                `arrived: ${seen.length > 0 ? seen.join(', ') : 'none'}${problems}.`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async close() {
      route.remove();
      await client.webhooks.delete(created.id);
    },
  };
}

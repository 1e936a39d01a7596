import { type Cardrail, CardrailUsers, type CustomerEvent, type UserEvent } from '@cardrail/sdk';
import type { ServerEvents } from './events.js';
import type { Directory } from '../core/directory.js';
import type { IdFactory } from '../core/ids.js';
import type { ServerClock } from '../core/server-clock.js';
import type { Variant } from '../core/variant.js';
import { type Approver, type ApproverOptions, createApprover } from './approver.js';
import { type Cardholder, type CardholderOptions, createCardholder } from './cardholder.js';
import type { InboxRouter } from './inbox-router.js';
import { type ByKey, type ClientOrKey, clientOf, type WithClientOrKey } from './by-key.js';
import { createTestClient, type TestClient, type TestClientOptions } from './test-client.js';
import { triggerEvent } from './trigger/trigger.js';
import type { TimePassing } from './trigger/world.js';
import {
  createWebhookInbox,
  type EventOf,
  type EventTypeOf,
  type InboxHost,
  type WebhookInbox,
  type WebhookInboxOptions,
} from './webhook-inbox.js';

/** What `mock.trigger()` drives. */
export interface TriggerOptions<Client extends Cardrail | CardrailUsers> {
  /** A client of this mock (made by `mock.client()`, or any client of it): the event happens in its organization. */
  client: Client;
  /**
   * How events that need time (the expiries, a spend spike) get it: `advance` (default) moves the organization's test
   * clock; `real-time` waits for the wall clock where that is short (a minute), as `cardrail-mock trigger` does.
   */
  time?: TimePassing;
}

/** An event of one type. */
export interface EventOfType<Type extends string> {
  /** The event type. */
  type: Type;
}

/** What `mock.trigger(type)` resolves with: the event of `type`, in the client's variant's envelope. */
export type TriggeredEvent<Client, Type extends string> = Extract<EventOf<Client>, EventOfType<Type>>;

/** Whether `event` is what `mock.trigger(type, { client })` promises: of `type`, in the envelope of the client's variant. */
function isTriggered<Client extends Cardrail | CardrailUsers, Type extends string>(
  event: CustomerEvent | UserEvent,
  client: Client,
  type: Type,
): event is TriggeredEvent<Client, Type> {
  // The catalog envelope (CardrailUsers) dates events in epoch ms, the general one with an ISO string.
  return event.type === type && client instanceof CardrailUsers === (typeof event.createdAt === 'number');
}

/** The test kit's part of a mock: typed clients of new organizations, in-process webhook inboxes, card holders. */
export interface TestKit {
  /**
   * A typed client that calls this mock in-process: `Cardrail`, or with `{ variant: 'user' }` `CardrailUsers`. Of a
   * new organization (a new test key), or of the organization of `apiKey` (the key the app under test uses). No
   * network; it works whether MSW listens or not.
   */
  client<V extends Variant = 'customer'>(options?: TestClientOptions & { variant?: V; apiKey?: string }): TestClient<V>;
  /**
   * A webhook of the client's organization (or of `apiKey`'s: any key, such as the one the app's own client uses)
   * whose deliveries arrive in-process, verified with the SDK against the mock's clock, as typed events:
   * `inbox.events`, `await inbox.waitFor('transaction.created')`.
   */
  webhookInbox<Client extends Cardrail | CardrailUsers>(
    options: WebhookInboxOptions<Client>,
  ): Promise<WebhookInbox<EventOf<Client>>>;
  /** The same, for the organization of `apiKey` (any key, such as the one the app's own client uses). */
  webhookInbox<V extends Variant = 'customer'>(
    options: ByKey<V> & Omit<WebhookInboxOptions<TestClient<V>>, 'client'>,
  ): Promise<WebhookInbox<EventOf<TestClient<V>>>>;
  /** A funded owner (customer or user) with an agent and a card, created through the client's (or `apiKey`'s) API. */
  cardholder<Client extends Cardrail | CardrailUsers>(options: CardholderOptions<Client>): Promise<Cardholder<Client>>;
  /** The same, through the API with `apiKey` (any key, such as the one the app's own client uses). */
  cardholder<V extends Variant = 'customer'>(
    options: ByKey<V> & Omit<CardholderOptions<TestClient<V>>, 'client'>,
  ): Promise<Cardholder<TestClient<V>>>;
  /**
   * Makes one event of `type` happen in the client's organization through its API (what `cardrail-mock trigger`
   * does): creates what it needs, drives the operation that emits it, and resolves with the event as `GET /events`
   * answers it. The organization's webhooks receive it, signed, like any other.
   */
  trigger<Client extends Cardrail | CardrailUsers, Type extends EventTypeOf<Client>>(
    type: Type,
    options: TriggerOptions<Client>,
  ): Promise<TriggeredEvent<Client, Type>>;
  /**
   * A person who approves or rejects, through the client, every intent of its organization that waits for approval
   * (those waiting and each new one), with a fixed answer or one per intent, optionally `delaySeconds` later on the
   * organization's test clock: `mock.approver({ client, decide: 'approve' })`.
   */
  approver<Client extends Cardrail | CardrailUsers>(options: ApproverOptions<Client>): Approver;
}

/** What the test kit needs of its mock. */
export interface TestKitHost {
  /** The mock's `handle`: where test clients send their requests. */
  handle(request: Request): Promise<Response>;
  /** Makes the test clients' keys and the inboxes' ids. */
  ids: IdFactory;
  /** Where deliveries to in-process inboxes go (the webhook dispatcher's fetch). */
  router: InboxRouter;
  /** The test clocks, against which inboxes verify signatures. */
  clock: ServerClock;
  /** The variant of a key the mock already knows (its organization's), for `apiKey` options without `variant`. */
  variantOfKey(apiKey: string): Variant | undefined;
  /** Every event as it is stored: the approver's cue. */
  events: Pick<ServerEvents, 'subscribe'>;
  /** The organizations and modes (the current set: `mock.reset()` replaces it). */
  directory(): Directory;
}

/** The test kit of one mock (createMockServer of composition/create-mock-server.ts hands it to composeMockServer). */
export function createTestKit(host: TestKitHost): TestKit {
  // The keys of the test clients, so that an inbox verifies deliveries against the clock of the client's organization.
  const keysOfClients = new WeakMap<object, string>();
  const inboxHost: InboxHost = {
    router: host.router,
    nextId: () => host.ids.next('webhook').replace(/^wh_/, 'inbox_'),
    nowSeconds(client) {
      const apiKey = keysOfClients.get(client);
      if (apiKey === undefined) {
        throw new TypeError(
          'mock.webhookInbox() needs a client made by mock.client() of this mock (its key tells the organization and its clock); ' +
            'for a client of your own, pass the key it uses instead: mock.webhookInbox({ apiKey }).',
        );
      }
      return Math.floor(host.clock.now(apiKey).getTime() / 1000);
    },
  };
  const client = <V extends Variant = 'customer'>(options: TestClientOptions & { variant?: V; apiKey?: string } = {}) => {
    const { apiKey = host.ids.apiKey('test'), variant, ...rest } = options;
    const made = createTestClient(host.handle, apiKey, { ...rest, variant: variant ?? host.variantOfKey(apiKey) });
    keysOfClients.set(made, apiKey);
    return made as TestClient<V>;
  };
  // A `{ apiKey, variant? }` option stands for a client of that key; `{ client }` is used as it is.
  const withClient = <T extends ClientOrKey>(options: T): T & { client: Cardrail | CardrailUsers } => ({
    ...options,
    client: clientOf(options, (key) => client(key)),
  });
  return {
    client,
    webhookInbox: ((options: WithClientOrKey<WebhookInboxOptions<Cardrail | CardrailUsers>>) =>
      createWebhookInbox(inboxHost, withClient(options))) as TestKit['webhookInbox'],
    cardholder: ((options: WithClientOrKey<CardholderOptions<Cardrail | CardrailUsers>>) =>
      createCardholder(withClient(options))) as TestKit['cardholder'],
    async trigger(type, options) {
      const { event } = await triggerEvent(options.client, type, { time: options.time ?? 'advance' });
      if (!isTriggered(event, options.client, type)) throw new Error(`mock.trigger('${type}') read back a ${event.type} event`);
      return event;
    },
    approver: (options) =>
      createApprover(
        {
          events: host.events,
          directory: host.directory,
          tenantOfClient(client) {
            const apiKey = keysOfClients.get(client);
            return apiKey === undefined ? undefined : host.directory().authenticate(apiKey)?.tenant;
          },
        },
        options,
      ),
  };
}

import { BaseClock } from './core/clock.js';
import { Directory } from './core/directory.js';
import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import { createServerEvents, type ServerEvents } from './control/events.js';
import { type Cardholder, type CardholderOptions, createCardholder } from './testkit/cardholder.js';
import { InboxRouter } from './testkit/inbox-router.js';
import { createTestClient, type TestClient, type TestClientOptions } from './testkit/test-client.js';
import {
  createWebhookInbox,
  type EventOf,
  type InboxHost,
  type WebhookInbox,
  type WebhookInboxOptions,
} from './testkit/webhook-inbox.js';
import { IdFactory, randomBase62, cryptoRandom, type RandomSource } from './core/ids.js';
import { parseRateLimit, RateLimiter, type RateLimitSetting } from './core/rate-limiter.js';
import { seededRandom } from './core/seeded-random.js';
import type { EventListener, PolicyChangeListener, Tenant, TenantHooks } from './core/tenant.js';
import { engineExtension } from './engine/index.js';
import type { Variant } from './core/variant.js';
import { codecs } from './variants/index.js';
import { eventNaming } from './variants/event-naming.js';
import type { MockExtension } from './extension.js';
import { createHttpApp } from './http/app.js';
import type { ApiRequest } from './http/api-request.js';
import { toWebResponse, type WireResponse } from './http/response.js';
import type { HandlerMap, ServerServices } from './http/operation-handler.js';
import { loadSpecDocuments, type SpecDocuments } from './spec/documents.js';
import { WebhookDispatcher, type EventRenderer, type FetchFunction } from './webhooks/dispatcher.js';

export interface MockServerOptions {
  /** Stop wall time: every test clock starts at this instant and moves only when advanced. Default: wall time. */
  frozenClock?: Date | string | number | undefined;
  /** `standard` (100/min), `pro` (1000/min) or requests per minute, per key. Default: no limit. */
  rateLimit?: RateLimitSetting | string | undefined;
  /** The fetch used to deliver webhooks. Default: `globalThis.fetch` at each attempt (so MSW can intercept). */
  fetch?: FetchFunction | undefined;
  /** How long a receiver has to answer a delivery. Default 10 000 ms. */
  webhookTimeoutMs?: number | undefined;
  /** Check each answer against the spec's response schema; a mismatch answers 500. Meant for tests. */
  validateResponses?: boolean | undefined;
  /** `true` logs one line per request to stdout; a function receives the lines instead. */
  log?: boolean | ((line: string) => void) | undefined;
  /** Makes ids reproducible: the same seed gives the same ids in the same order. */
  seed?: string | undefined;
  /** More behaviour: handlers by operationId (later extensions override earlier ones) and event observers. */
  extensions?: MockExtension[] | undefined;
  /** Overrides by operationId, applied last. */
  handlers?: HandlerMap | undefined;
  /** Spec documents to serve; default: the copies bundled with the package. */
  documents?: SpecDocuments | undefined;
}

/** The test clocks, server-wide. */
export interface ServerClock {
  /**
   * With a key: that organization's test-clock time (what its events and webhook signatures carry). Without:
   * the base time (wall time, or the frozen instant) plus every server-wide advance.
   */
  now(apiKey?: string): Date;
  readonly frozen: boolean;
  /** Advances every organization's test clock by `seconds`, running due work in time order in each. */
  advance(seconds: number): Promise<void>;
}

export interface MockServer {
  /** Answers one API request (`/v1/...`); every transport calls this. */
  handle(request: Request): Promise<Response>;
  /**
   * Answers like `handle`, for transports: takes anything Request-like that has the method, URL, headers and
   * text, and gives the answer as status, header object and body, synchronously when nothing in the request had
   * to wait (a read without a body). The Node server writes it straight to the socket.
   */
  dispatch(request: ApiRequest): WireResponse | Promise<WireResponse>;
  /** Answers like `handle`, outside any rate limit: for preloading fixtures. */
  preload(request: Request): Promise<Response>;
  clock: ServerClock;
  events: ServerEvents;
  /** Forgets every organization, key, object, event and pending delivery. */
  reset(): void;
  /** Resolves when no due work is left and every started webhook attempt has finished. */
  idle(): Promise<void>;
  /** The tenant (organization and mode) of a key, creating it like a first request would. For engine tests. */
  tenantOf(apiKey: string): Tenant | undefined;
  /**
   * A typed client of a new organization (a new test key) that calls this mock in-process: `Cardrail`, or with
   * `{ variant: 'user' }` `CardrailUsers`. No network; it works whether MSW listens or not.
   */
  client<V extends Variant = 'customer'>(options?: TestClientOptions & { variant?: V }): TestClient<V>;
  /**
   * A webhook of the client's organization whose deliveries arrive in-process, verified with the SDK against the
   * mock's clock, as typed events: `inbox.events`, `await inbox.waitFor('transaction.created')`.
   */
  webhookInbox<Client extends Cardrail | CardrailUsers>(
    options: WebhookInboxOptions<Client>,
  ): Promise<WebhookInbox<EventOf<Client>>>;
  /** A funded owner (customer or user) with an agent and a card, created through the client's API. */
  cardholder<Client extends Cardrail | CardrailUsers>(options: CardholderOptions<Client>): Promise<Cardholder<Client>>;
}

/** Creates the mock: spec loaded and validators compiled once, state in memory, no I/O until asked. */
export function createMockServer(options: MockServerOptions = {}): MockServer {
  const documents = options.documents ?? loadSpecDocuments();
  const random: RandomSource = options.seed === undefined ? cryptoRandom : seededRandom(options.seed);
  const ids = new IdFactory(random);
  const baseClock = new BaseClock({ frozenAt: options.frozenClock });
  const renderEvent: EventRenderer = (event, variant) => codecs[variant].renderEvent(event);
  const inboxes = new InboxRouter(options.fetch);
  const dispatcher = new WebhookDispatcher({ render: renderEvent, fetch: inboxes.fetch, timeoutMs: options.webhookTimeoutMs });

  const extensions: MockExtension[] = [engineExtension, ...(options.extensions ?? [])];
  const handlers: HandlerMap = Object.assign({}, ...extensions.map((e) => e.handlers ?? {}), options.handlers ?? {});

  const events = createServerEvents(() => services.directory);
  const listeners = new Set<EventListener>([dispatcher.onEvent]);
  for (const extension of extensions) if (extension.onEvent) listeners.add(extension.onEvent);
  listeners.add((event, tenant) => events.notify(tenant, event));
  const policyListeners = new Set<PolicyChangeListener>();
  for (const extension of extensions) if (extension.onPolicyChanged) policyListeners.add(extension.onPolicyChanged);
  const hooks: TenantHooks = { onEvent: listeners, onPolicyChanged: policyListeners };

  const services: ServerServices = {
    directory: new Directory(ids, baseClock, hooks, eventNaming),
    webhooks: dispatcher,
    naming: eventNaming,
  };

  const log =
    options.log === true ? (line: string) => process.stdout.write(`${line}\n`) : options.log === false ? undefined : options.log;
  const exempt = new WeakSet<object>();
  const dispatch = createHttpApp({
    exempt,
    documents,
    handlers,
    services,
    rateLimiter: options.rateLimit === undefined ? undefined : new RateLimiter(parseRateLimit(options.rateLimit)),
    validateResponses: options.validateResponses,
    log,
    requestId: () => `req_${randomBase62(cryptoRandom, 16)}`,
  });

  const clock: ServerClock = {
    now: (apiKey) => {
      const tenant = apiKey === undefined ? undefined : services.directory.authenticate(apiKey)?.tenant;
      return new Date(tenant ? tenant.now() : baseClock.now() + services.directory.sharedOffsetMs);
    },
    get frozen() {
      return baseClock.frozen;
    },
    async advance(seconds) {
      const ms = seconds * 1000;
      services.directory.sharedOffsetMs += ms;
      for (const tenant of [...services.directory.tenants()]) await tenant.scheduler.advance(ms);
    },
  };

  const handle = async (request: Request): Promise<Response> => toWebResponse(await dispatch(request), request.method);
  // The keys of the test clients, so that an inbox verifies deliveries against the clock of the client's organization.
  const keysOfClients = new WeakMap<object, string>();
  const inboxHost: InboxHost = {
    router: inboxes,
    nextId: () => ids.next('webhook').replace(/^wh_/, 'inbox_'),
    nowSeconds(client) {
      const apiKey = keysOfClients.get(client);
      if (apiKey === undefined) {
        throw new TypeError(
          'mock.webhookInbox() needs a client made by mock.client() of this mock (its key tells the organization and its clock).',
        );
      }
      return Math.floor(clock.now(apiKey).getTime() / 1000);
    },
  };
  return {
    handle,
    dispatch,
    preload(request) {
      exempt.add(request);
      return handle(request);
    },
    clock,
    events: { list: events.list, subscribe: events.subscribe },
    client<V extends Variant = 'customer'>(clientOptions: TestClientOptions & { variant?: V } = {}) {
      const apiKey = ids.apiKey('test');
      const client = createTestClient(handle, apiKey, clientOptions);
      keysOfClients.set(client, apiKey);
      return client;
    },
    webhookInbox: (inboxOptions) => createWebhookInbox(inboxHost, inboxOptions),
    cardholder: (cardholderOptions) => createCardholder(cardholderOptions),
    reset() {
      inboxes.clear();
      services.directory.dispose();
      services.directory = new Directory(ids, baseClock, hooks, eventNaming);
    },
    async idle() {
      for (const tenant of [...services.directory.tenants()]) await tenant.scheduler.idle();
    },
    tenantOf(apiKey) {
      return services.directory.authenticate(apiKey)?.tenant;
    },
  };
}

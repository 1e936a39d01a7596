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
import { seededRandom, type SeededRandom } from './core/seeded-random.js';
import type { EventListener, PolicyChangeListener, RestoreListener, Tenant, TenantHooks } from './core/tenant.js';
import type { StateJournal } from './core/state/change-tracker.js';
import { STATE_FORMAT, STATE_VERSION, type MockSnapshot } from './core/state/model.js';
import { durableState, stateLines } from './composition/durable-state.js';
import { engineReactions } from './engine/reactions.js';
import type { Variant } from './core/variant.js';
import { eventNaming } from './core/event-naming.js';
import type { MockExtension } from './operations/extension.js';
import { createHttpApp } from './http/app.js';
import { DEFAULT_MAX_BODY_BYTES } from './http/body-limit.js';
import type { ApiRequest } from './operations/api-request.js';
import { toWebResponse, type WireResponse } from './http/response.js';
import type { Dispatch } from './http/app.js';
import type { HandlerMap } from './operations/handler-map.js';
import type { ServerServices } from './operations/services.js';
import type { SpecDocuments } from './spec/documents.js';
import { WebhookDispatcher, type FetchFunction } from './webhooks/dispatcher.js';
import { renderEvent } from './variants/render-event.js';

/** Options of `createMockServer` (and of `createHandlers` and `startMockServer`, which take the same). */
export interface MockServerOptions {
  /** Stop wall time: every test clock starts at this instant and moves only when advanced. Default: wall time. */
  frozenClock?: Date | string | number | undefined;
  /** `standard` (100/min), `pro` (1000/min) or requests per minute, per key. Default: no limit. */
  rateLimit?: RateLimitSetting | string | undefined;
  /** The fetch used to deliver webhooks. Default: `globalThis.fetch` at each attempt (so MSW can intercept). */
  fetch?: FetchFunction | undefined;
  /** How long a receiver has to answer a delivery. Default 10 000 ms. */
  webhookTimeoutMs?: number | undefined;
  /**
   * Hosts that may receive webhooks whatever their address: link-local and unspecified addresses are refused
   * otherwise (docs/webhooks.md#where-deliveries-may-go).
   */
  allowWebhookHosts?: readonly string[] | undefined;
  /** Webhook attempts in flight to one origin at most (default 8); more wait for a slot, keeping their order. */
  webhookAttemptsPerOrigin?: number | undefined;
  /** Webhook attempts in flight overall at most (default 128). */
  webhookAttemptsInFlight?: number | undefined;
  /** Check each answer against the spec's response schema; a mismatch answers 500. Meant for tests. */
  validateResponses?: boolean | undefined;
  /** `true` logs one line per request to the console (stdout on Node); a function receives the lines instead. */
  log?: boolean | ((line: string) => void) | undefined;
  /** Makes ids reproducible: the same seed gives the same ids in the same order. */
  seed?: string | undefined;
  /** More behaviour: handlers by operationId (later extensions override earlier ones) and event observers. */
  extensions?: MockExtension[] | undefined;
  /** Overrides by operationId, applied last. */
  handlers?: HandlerMap | undefined;
  /** Spec documents to serve; default: the copies bundled with the package. */
  documents?: SpecDocuments | undefined;
  /** The largest request body read, in bytes; a larger one is 413. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Takes an organization and mode out of memory after this much wall time without a request. With a durable
   * `journal` that keeps every tenant (the Node server's `--state`) it comes back on its next request, or when its
   * scheduled work falls due; without one it is forgotten, and only once no work is scheduled on its clock.
   * Default: never.
   */
  evictIdleMs?: number | undefined;
  /**
   * A durable store: every change is handed to it before the answer that made it (docs/standalone-server.md). The
   * Node server's `--state` is one; see `startMockServer({ state })`.
   */
  journal?: StateJournal | undefined;
}

/** What `stop` left behind. */
export interface StopReport {
  /** Whether every webhook attempt in flight finished before the deadline (the others' deliveries stay pending). */
  drained: boolean;
}

/** The test clocks, server-wide. */
export interface ServerClock {
  /**
   * With a key: that organization's test-clock time (what its events and webhook signatures carry). Without:
   * the base time (wall time, or the frozen instant) plus every server-wide advance.
   */
  now(apiKey?: string): Date;
  /** Whether the clocks were frozen (`frozenClock`): they then move only when advanced. */
  readonly frozen: boolean;
  /** Advances every organization's test clock by `seconds`, running due work in time order in each. */
  advance(seconds: number): Promise<void>;
}

/** A running mock: answers requests, and is the tests' control over the clocks, the events and the state. */
export interface MockServer {
  /** Answers one API request (`/v1/...`); every transport calls this. */
  handle(request: Request): Promise<Response>;
  /**
   * Answers like `handle`, for transports: takes anything Request-like that has the method, URL, headers and
   * text, and gives the answer as status, header object and body, synchronously when nothing in the request had
   * to wait (a read without a body, to an operation already requested once: the first request of an operation
   * waits for its validators to load). The Node server writes it straight to the socket.
   */
  dispatch(request: ApiRequest): WireResponse | Promise<WireResponse>;
  /** Answers like `handle`, outside any rate limit: for preloading fixtures. */
  preload(request: Request): Promise<Response>;
  /** The test clocks: read an organization's time, advance every clock. */
  clock: ServerClock;
  /** Every stored event, for assertions. */
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
  /**
   * The whole state as plain JSON (docs/standalone-server.md#the-state-model): organizations, keys' digests,
   * objects, events, deliveries, test clocks, idempotency keys and the id generator's position.
   */
  snapshot(): MockSnapshot;
  /**
   * Replaces the state with a snapshot: afterwards the mock answers as the one that took it did (due work and
   * pending webhook retries scheduled again). The snapshot is copied, so it can be restored again.
   */
  restore(snapshot: MockSnapshot): void;
  /** Takes idle organizations out of memory now (see `evictIdleMs`); returns how many left. */
  evictIdle(idleMs: number): number;
  /**
   * Stops due work and webhook delivery for shutdown: attempts waiting for a slot never start, those in flight get
   * until `deadlineMs` to finish; every delivery without an outcome stays pending (a durable store keeps it for the
   * next start). The mock answers nothing afterwards.
   */
  stop(deadlineMs: number): Promise<StopReport>;
}

/**
 * Creates the mock: routes from the spec, state in memory, no I/O until asked. Runs wherever `Request` does (Node,
 * Bun, Deno, browsers, edge workers): each operation's validators load on its first request.
 *
 * @example
 * ```ts
 * const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
 * const response = await mock.handle(
 *   new Request('http://127.0.0.1:4010/v1/customers', {
 *     method: 'POST',
 *     headers: { Authorization: 'Bearer sk_test_example01', 'Content-Type': 'application/json' },
 *     body: JSON.stringify({ email: 'ada@example.com' }),
 *   }),
 * );
 * // Or give it to the SDK: new Cardrail({ apiKey, fetch: (request) => mock.handle(request) })
 * ```
 */
export function createMockServer(options: MockServerOptions = {}): MockServer {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError(`maxBodyBytes must be a positive integer, got ${String(options.maxBodyBytes)}`);
  }
  const seeded: SeededRandom | undefined = options.seed === undefined ? undefined : seededRandom(options.seed);
  const random: RandomSource = seeded ?? cryptoRandom;
  const ids = new IdFactory(random);
  const baseClock = new BaseClock({ frozenAt: options.frozenClock });
  const inboxes = new InboxRouter(options.fetch);
  const dispatcher = new WebhookDispatcher({
    render: renderEvent,
    fetch: inboxes.fetch,
    timeoutMs: options.webhookTimeoutMs,
    allowHosts: options.allowWebhookHosts,
    attemptsPerOrigin: options.webhookAttemptsPerOrigin,
    attemptsInFlight: options.webhookAttemptsInFlight,
  });

  const extensions: MockExtension[] = [{ name: 'engine', ...engineReactions }, ...(options.extensions ?? [])];
  const handlers: HandlerMap = Object.assign({}, ...extensions.map((e) => e.handlers ?? {}), options.handlers ?? {});

  const events = createServerEvents(() => live.directory);
  const listeners = new Set<EventListener>([dispatcher.onEvent]);
  for (const extension of extensions) if (extension.onEvent) listeners.add(extension.onEvent);
  listeners.add((event, tenant) => events.notify(tenant, event));
  const policyListeners = new Set<PolicyChangeListener>();
  for (const extension of extensions) if (extension.onPolicyChanged) policyListeners.add(extension.onPolicyChanged);
  const restoreListeners = new Set<RestoreListener>([dispatcher.onRestore]);
  for (const extension of extensions) if (extension.onRestore) restoreListeners.add(extension.onRestore);

  let services: ServerServices | undefined;
  const serverState = () => ({ sharedOffsetMs: services?.directory.sharedOffsetMs ?? 0, random: seeded?.position() ?? null });
  const { journal } = options;
  const durable = durableState(journal, {
    directory: () => live.directory,
    serverState,
    serverNow: () => baseClock.now() + live.directory.sharedOffsetMs,
    frozen: baseClock.frozen,
    putBackServer(saved) {
      live.directory.sharedOffsetMs = saved.sharedOffsetMs;
      if (seeded && saved.random) seeded.moveTo(saved.random);
    },
  });
  const hooks: TenantHooks = {
    onEvent: listeners,
    onPolicyChanged: policyListeners,
    onRestore: restoreListeners,
    changes: durable.changes,
  };
  const newDirectory = () => new Directory(ids, baseClock, hooks, eventNaming, durable.tenantStore);
  const live: ServerServices = { directory: newDirectory(), webhooks: dispatcher, naming: eventNaming };
  services = live;

  const log = options.log === true ? (line: string) => console.log(line) : options.log === false ? undefined : options.log;
  const exempt = new WeakSet<object>();
  const answer = createHttpApp({
    exempt,
    documents: options.documents,
    handlers,
    services: live,
    rateLimiter: options.rateLimit === undefined ? undefined : new RateLimiter(parseRateLimit(options.rateLimit)),
    validateResponses: options.validateResponses,
    log,
    requestId: () => randomBase62(cryptoRandom, 16, 'req_'),
    maxBodyBytes,
  });
  let stopped = false;
  let stopSweep: (() => void) | undefined;
  // Every change a request made is with the durable store before its answer leaves (503 when the store refuses it).
  const committing = durable.dispatch(answer);
  const dispatch: Dispatch = !journal
    ? answer
    : (request) => {
        if (stopped) throw new Error('The mock was stopped.');
        return committing(request);
      };

  /** Replaces the state; `snapshot` is adopted as is (its records become the live ones). */
  const restoreState = (snapshot: MockSnapshot): void => {
    if (snapshot.format !== STATE_FORMAT || snapshot.version !== STATE_VERSION) {
      throw new TypeError(`Not a ${STATE_FORMAT} version ${STATE_VERSION} snapshot.`);
    }
    live.directory.dispose();
    live.directory = newDirectory();
    const { directory } = live;
    durable.quietly(() => {
      directory.sharedOffsetMs = snapshot.sharedOffsetMs;
      if (seeded && snapshot.random) seeded.moveTo(snapshot.random);
      const restored = snapshot.tenants.map((saved) => directory.restoreTenant(saved));
      for (const tenant of restored) for (const hook of restoreListeners) hook(tenant);
    });
    // Work that fell due while the state was stored (a webhook retry, an expiry) runs now, and is recorded.
    for (const tenant of [...directory.tenants()]) tenant.scheduler.runDue();
  };

  journal?.attach?.({
    lines: () => stateLines({ directory: () => live.directory, serverState }),
    restore: restoreState,
    commit: () => durable.commit(),
  });
  durable.start();

  if (options.evictIdleMs !== undefined) {
    const idleMs = options.evictIdleMs;
    const sweep = setInterval(() => live.directory.evictIdle(idleMs), Math.min(Math.max(idleMs / 2, 1_000), 60_000));
    // An idle sweep must not keep a test process or CLI alive.
    (sweep as { unref?: () => void }).unref?.();
    stopSweep = () => clearInterval(sweep);
  }

  const clock: ServerClock = {
    now: (apiKey) => {
      const tenant = apiKey === undefined ? undefined : live.directory.authenticate(apiKey)?.tenant;
      return new Date(tenant ? tenant.now() : baseClock.now() + live.directory.sharedOffsetMs);
    },
    get frozen() {
      return baseClock.frozen;
    },
    async advance(seconds) {
      const ms = seconds * 1000;
      // Organizations kept out of memory with work due within the advance come in first, to run it in time order.
      durable.beforeAdvance(ms);
      live.directory.sharedOffsetMs += ms;
      for (const tenant of [...live.directory.tenants()]) {
        await tenant.scheduler.advance(ms);
        tenant.prune();
      }
      durable.commit();
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
      live.directory.dispose();
      live.directory = newDirectory();
      durable.reset();
    },
    async idle() {
      for (const tenant of [...live.directory.tenants()]) await tenant.scheduler.idle();
    },
    tenantOf(apiKey) {
      return live.directory.authenticate(apiKey)?.tenant;
    },
    snapshot() {
      // A copy: later changes to the live records do not reach it.
      return structuredClone(durable.snapshot());
    },
    restore(snapshot) {
      restoreState(structuredClone(snapshot));
      try {
        durable.restored();
      } catch (error) {
        // Not stored: the store keeps its state, and memory follows it again (tenants are read back as needed).
        live.directory.dispose();
        live.directory = newDirectory();
        throw error;
      }
    },
    evictIdle(idleMs) {
      return live.directory.evictIdle(idleMs);
    },
    async stop(deadlineMs) {
      stopSweep?.();
      durable.stop();
      dispatcher.stop();
      const tenants = [...live.directory.tenants()];
      for (const tenant of tenants) tenant.scheduler.stop();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const drained = await Promise.race([
        Promise.all(tenants.map((tenant) => tenant.scheduler.settled())).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), deadlineMs);
        }),
      ]);
      clearTimeout(timer);
      try {
        durable.commit();
      } catch {
        // Refused: those changes belonged to no answer (deliveries stay pending, due work runs again after restart).
      }
      stopped = true;
      return { drained };
    },
  };
}

import { BaseClock } from '../core/clock.js';
import { eventNaming } from '../core/event-naming.js';
import { IdFactory, newRequestId } from '../core/ids.js';
import { parseRateLimit, RateLimiter } from '../core/rate-limiter.js';
import { seededRandom } from '../core/seeded-random.js';
import { createServerClock, type ServerClock } from '../core/server-clock.js';
import { MockState } from '../core/state/mock-state.js';
import type { MockSnapshot } from '../core/state/model.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import { FaultRegistry } from '../core/faults.js';
import { operationIdsOf } from '../spec/bundled-operations.js';
import { createMockFaults, type MockFaults } from '../testkit/faults.js';
import { approvalPageOf, clockAdvanceMaxWaitOf, maxBodyBytesOf, type MockServerOptions, requestLogOf } from './options.js';
import { tenantHooks } from './tenant-hooks.js';
import { createServerEvents, type ServerEvents } from '../testkit/events.js';
import { engineReactions } from '../engine/reactions.js';
import type { MockExtension } from '../operations/extension.js';
import { createHttpApp } from '../http/app.js';
import { commitBeforeAnswer } from '../http/commit-step.js';
import { gatedAnswer } from '../http/gate-step.js';
import { keyDigest } from '../core/key-digest.js';
import { stoppable } from '../http/stop-step.js';
import { withRequestLog } from '../http/request-log.js';
import type { WireResponse } from '../http/response.js';
import { webHandler } from '../http/web-handler.js';
import type { ApiRequest } from '../operations/api-request.js';
import type { ServerServices } from '../operations/services.js';
import { InboxRouter } from '../testkit/inbox-router.js';
import type { TestKit, TestKitHost } from '../testkit/test-kit.js';
import { renderEvent } from '../variants/index.js';
import { WebhookDispatcher } from '../webhooks/dispatcher.js';

/** A tenant the mock knows, and the variant its organization speaks. */
export interface KnownTenant {
  /** The organization in one mode. */
  tenant: Tenant;
  /** The variant the organization was first used through. */
  variant: Variant;
}

/** What `stop` left behind. */
export interface StopReport {
  /** Whether every webhook attempt in flight finished before the deadline (the others' deliveries stay pending). */
  drained: boolean;
}

/** A running mock: answers requests, and is the tests' control over the clocks, the events and the state. */
export interface MockServer extends TestKit {
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
  /** Failures on demand: error statuses, delays, dropped connections, failures after the commit (docs/testing.md#failure-handling). */
  faults: MockFaults;
  /**
   * Forgets every organization, key, object, event, pending delivery and fault. With a PostgreSQL state (shared with
   * other processes) it is a promise, settled once the database is reset.
   */
  reset(): void | Promise<void>;
  /** Resolves when no due work is left and every started webhook attempt has finished. */
  idle(): Promise<void>;
  /** The tenant (organization and mode) of a key, creating it like a first request would. For engine tests. */
  tenantOf(apiKey: string): Tenant | undefined;
  /** The tenant and variant of a key the mock already knows (not revoked), creating nothing: for the control API. */
  knownTenant(apiKey: string): KnownTenant | undefined;
  /**
   * The whole state as plain JSON (docs/standalone-server.md#the-state-model): organizations, keys' digests,
   * objects, events, deliveries, test clocks, idempotency keys and the id generator's position.
   */
  snapshot(): MockSnapshot;
  /**
   * The whole state, as `snapshot()` gives it, for every kind of state: with a PostgreSQL state (which `snapshot()`
   * cannot read synchronously) read from the database in one consistent snapshot.
   */
  readState(): Promise<MockSnapshot>;
  /**
   * Replaces the state with a snapshot: afterwards the mock answers as the one that took it did (due work and
   * pending webhook retries scheduled again). The snapshot is copied, so it can be restored again. With a PostgreSQL
   * state it is a promise, settled once the database holds the snapshot.
   */
  restore(snapshot: MockSnapshot): void | Promise<void>;
  /**
   * Runs `read` with the organization of `apiKey` up to date: at once in one process; with a PostgreSQL state, under
   * the organization's lock on a copy refreshed from the database (what the control API's reads of an organization use).
   */
  inOrganization<T>(apiKey: string, read: () => T): Promise<T>;
  /** Takes idle organizations out of memory now (see `evictIdleMs`); returns how many left. */
  evictIdle(idleMs: number): number;
  /**
   * Stops the mock for shutdown. From the call on, every request (through `handle`, `dispatch`, the MSW handlers or the
   * Node server) is answered 503 `service_unavailable` with `details.reason` `stopped`, running nothing; requests
   * already running finish. Due work and webhook delivery stop: attempts waiting for a slot never start, those in
   * flight get until `deadlineMs` to finish; every delivery without an outcome stays pending (a durable store keeps it
   * for the next start). The state stays readable (`snapshot()`, `events`).
   */
  stop(deadlineMs: number): Promise<StopReport>;
}

/**
 * Makes a mock and wires its parts (the composition root of both ways to run it): `createMockServer`
 * (create-mock-server.ts) gives it the test kit at once; the Node server (adapters/node.ts) gives it one whose SDK
 * clients load while the server starts answering. Each part is made here and handed to those that use it; nothing
 * else happens here.
 */
export function composeMockServer(options: MockServerOptions, testKit: (host: TestKitHost) => TestKit): MockServer {
  const maxBodyBytes = maxBodyBytesOf(options);
  const sharedStore = options.journal?.shared;
  if (sharedStore && options.seed !== undefined) throw seedRefused();
  const seeded = options.seed === undefined ? undefined : seededRandom(options.seed);
  const ids = new IdFactory(seeded);
  const baseClock = new BaseClock({ frozenAt: options.frozenClock });
  // Deliveries to the test kit's inboxes stay in-process; every other one goes to `options.fetch` or the global fetch.
  const inboxes = new InboxRouter(options.fetch);
  const dispatcher = new WebhookDispatcher({
    render: renderEvent,
    fetch: inboxes.fetch,
    timeoutMs: options.webhookTimeoutMs,
    allowHosts: options.allowWebhookHosts,
    attemptsPerOrganization: options.webhookAttemptsPerOrganization,
    attemptsPerOrigin: options.webhookAttemptsPerOrigin,
    attemptsInFlight: options.webhookAttemptsInFlight,
  });
  const extensions: MockExtension[] = [{ name: 'engine', ...engineReactions }, ...(options.extensions ?? [])];
  const events = createServerEvents(() => state.directory);
  const state = new MockState({
    ids,
    baseClock,
    naming: eventNaming,
    seeded,
    journal: options.journal,
    hooks: tenantHooks({
      webhooks: dispatcher,
      extensions,
      serverEvents: (event, tenant) => events.notify(tenant, event),
    }),
  });
  if (options.evictIdleMs !== undefined) state.sweepIdle(options.evictIdleMs);

  const services: ServerServices = {
    get directory() {
      return state.directory;
    },
    webhooks: dispatcher,
    naming: eventNaming,
    approvalPage: approvalPageOf(options),
    clockAdvanceMaxWaitMs: clockAdvanceMaxWaitOf(options),
  };
  const exempt = new WeakSet<object>();
  const faults = new FaultRegistry();
  const answer = createHttpApp({
    exempt,
    documents: options.documents,
    // Later extensions replace earlier ones' handlers; the `handlers` option replaces them all.
    handlers: Object.assign({}, ...extensions.map((extension) => extension.handlers ?? {}), options.handlers ?? {}),
    services,
    rateLimiter: options.rateLimit === undefined ? undefined : new RateLimiter(parseRateLimit(options.rateLimit)),
    validateResponses: options.validateResponses,
    maxBodyBytes,
    faults,
  });
  // Once stopped, nothing of a request runs; with a durable store, nothing is answered before its commit. Outermost,
  // each request gets its one Request-Id, and its log line once its answer is final.
  const gate = state.durable.shared?.gate;
  const committed = gate ? gatedAnswer(answer, gate, maxBodyBytes) : commitBeforeAnswer(answer, state.durable);
  const stopping = stoppable(options.journal ? committed : answer);
  const dispatch = withRequestLog(stopping.dispatch, { requestId: newRequestId, log: requestLogOf(options) });
  const handle = webHandler(dispatch);
  const clock = createServerClock(baseClock, state);

  return {
    handle,
    dispatch,
    preload(request) {
      exempt.add(request);
      return handle(request);
    },
    clock,
    events: { list: events.list, subscribe: events.subscribe },
    faults: createMockFaults(faults, () => operationIdsOf(options.documents)),
    ...testKit({
      handle,
      ids,
      router: inboxes,
      clock,
      events,
      directory: () => state.directory,
      variantOfKey: (apiKey) => state.directory.known(apiKey)?.variant,
    }),
    reset() {
      inboxes.clear();
      faults.clear();
      return state.reset();
    },
    idle: () => state.idle(),
    // A shared state's organizations are made under their lock only (by a request): here a key is looked up.
    tenantOf: (apiKey) => (gate ? state.directory.known(apiKey) : state.directory.authenticate(apiKey))?.tenant,
    knownTenant: (apiKey) => state.directory.known(apiKey),
    snapshot: () => state.snapshot(),
    readState: () => state.readState(),
    restore: (snapshot) => state.restore(snapshot),
    inOrganization: async (apiKey, read) => (gate ? gate.runForKey(keyDigest(apiKey), read) : read()),
    evictIdle: (idleMs) => state.directory.evictIdle(idleMs),
    async stop(deadlineMs) {
      stopping.stop();
      dispatcher.stop();
      return { drained: await state.stop(deadlineMs) };
    },
  };
}

/** Seeded ids keep one server-wide position, which processes sharing a database cannot share without a hot row. */
function seedRefused(): Error {
  return new Error(
    'seed (seeded ids) cannot be used with a PostgreSQL state: several processes share it, and one id sequence across them would serialize every commit. Leave seed out (ids are random), or use an in-memory or SQLite (--state <dir>) mock for reproducible ids',
  );
}

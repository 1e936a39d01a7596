import { BaseClock } from './core/clock.js';
import { Directory } from './core/directory.js';
import type { AnyStoredEvent as MockEvent, Mode } from './core/event-types.js';
import { IdFactory, randomBase62, cryptoRandom, type RandomSource } from './core/ids.js';
import { parseRateLimit, RateLimiter, type RateLimitSetting } from './core/rate-limiter.js';
import { seededRandom } from './core/seeded-random.js';
import type { EventListener, PolicyChangeListener, Tenant, TenantHooks } from './core/tenant.js';
import { engineExtension } from './engine/index.js';
import { codecs } from './variants/index.js';
import { eventNaming } from './variants/event-naming.js';
import type { MockExtension } from './extension.js';
import { createHttpApp } from './http/app.js';
import type { ApiRequest } from './http/api-request.js';
import { toWebResponse, type WireResponse } from './http/response.js';
import type { HandlerMap, ServerServices } from './http/operation-handler.js';
import { loadSpecDocuments, type SpecDocuments } from './spec/documents.js';
import { WebhookDispatcher, type EventRenderer, type FetchFunction } from './webhooks/dispatcher.js';

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
  /** Whether the clocks were frozen (`frozenClock`): they then move only when advanced. */
  readonly frozen: boolean;
  /** Advances every organization's test clock by `seconds`, running due work in time order in each. */
  advance(seconds: number): Promise<void>;
}

/** Which stored events `events.list` returns; every field narrows the list. */
export interface EventQuery {
  /** Only events of the organization and mode of this key. */
  apiKey?: string;
  /** Only events of this organization (both modes unless `mode` is given). */
  organizationId?: string;
  /** Only events of this mode. */
  mode?: Mode;
  /** Catalog type name (e.g. `transaction.authorized`). */
  type?: string;
}

/** Every stored event, for assertions in tests. */
export interface ServerEvents {
  /** Matching events, oldest first. */
  list(query?: EventQuery): MockEvent[];
  /** Called with every event as it is stored; returns the unsubscribe function. */
  subscribe(listener: (event: MockEvent) => void): () => void;
}

/** A running mock: answers requests, and is the tests' control over the clocks, the events and the state. */
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
}

/**
 * Creates the mock: spec loaded and validators compiled once, state in memory, no I/O until asked.
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
  const documents = options.documents ?? loadSpecDocuments();
  const random: RandomSource = options.seed === undefined ? cryptoRandom : seededRandom(options.seed);
  const ids = new IdFactory(random);
  const baseClock = new BaseClock({ frozenAt: options.frozenClock });
  const renderEvent: EventRenderer = (event, variant) => codecs[variant].renderEvent(event);
  const dispatcher = new WebhookDispatcher({ render: renderEvent, fetch: options.fetch, timeoutMs: options.webhookTimeoutMs });

  const extensions: MockExtension[] = [engineExtension, ...(options.extensions ?? [])];
  const handlers: HandlerMap = Object.assign({}, ...extensions.map((e) => e.handlers ?? {}), options.handlers ?? {});

  const observers = new Set<(event: MockEvent) => void>();
  const listeners = new Set<EventListener>([dispatcher.onEvent]);
  for (const extension of extensions) if (extension.onEvent) listeners.add(extension.onEvent);
  listeners.add((event) => {
    for (const observer of observers) observer(event);
  });
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
  return {
    handle,
    dispatch,
    preload(request) {
      exempt.add(request);
      return handle(request);
    },
    clock,
    events: {
      list(query = {}) {
        let tenants = [...services.directory.tenants()];
        if (query.apiKey !== undefined) {
          const tenant = services.directory.authenticate(query.apiKey)?.tenant;
          tenants = tenant ? [tenant] : [];
        }
        const events: MockEvent[] = [];
        for (const tenant of tenants) {
          if (query.organizationId !== undefined && tenant.organizationId !== query.organizationId) continue;
          if (query.mode !== undefined && tenant.mode !== query.mode) continue;
          events.push(...[...tenant.events.events.values()].reverse());
        }
        const matching = query.type === undefined ? events : events.filter((event) => event.type === query.type);
        // Oldest first; a stable sort keeps each tenant's own order for events at the same instant.
        return matching.sort((a, b) => a.createdAt - b.createdAt);
      },
      subscribe(observer) {
        observers.add(observer);
        return () => observers.delete(observer);
      },
    },
    reset() {
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

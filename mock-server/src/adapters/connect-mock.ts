import { Cardrail, type CardrailUsers, type ClientOptions, CardrailUsers as Users } from '@cardrail/sdk';
import { cryptoRandom, IdFactory } from '../core/ids.js';
import type { MockSnapshot } from '../core/state/model.js';
import type { Variant } from '../core/variant.js';
import { API_BASE_PATH } from '../http/app.js';
import { type ClientOrKey, clientOf } from '../testkit/by-key.js';
import { type CardholderOptions, createCardholder } from '../testkit/cardholder.js';
import { CONTROL_BASE_PATH } from '../testkit/control-openapi.js';
import type { FaultInfo, FaultOptions } from '../testkit/fault-options.js';
import type { TestClient, TestClientOptions } from '../testkit/test-client.js';
import type { TestKit, TriggerOptions } from '../testkit/test-kit.js';
import { triggerEvent } from '../testkit/trigger/trigger.js';
import { createWebhookInbox, type WebhookInboxOptions } from '../testkit/webhook-inbox.js';
import type { WireEvent } from '../variants/wire-event.js';
import { InboxServer } from './inbox-server.js';

/** Options of `connectMock`. */
export interface ConnectMockOptions {
  /** The control token (`--control-token`, `CARDRAIL_CONTROL_TOKEN`, or the one the server printed). */
  token: string;
  /** The fetch control calls and clients use. Default: the global fetch, looked up at each call. */
  fetch?: typeof fetch | undefined;
}

/** A fault injected on a remote mock. */
export interface RemoteFaultHandle {
  /** `flt_...`: in the `Cardrail-Mock-Fault` header of the answers it changed. */
  readonly id: string;
  /** The fault as it stands, or undefined once used up or cleared. */
  info(): Promise<FaultInfo | undefined>;
  /** Removes the fault. */
  clear(): Promise<void>;
}

/**
 * A standalone mock (`cardrail-mock --control`) driven from another process, with the in-process test kit's API:
 * the same `client`, `webhookInbox`, `cardholder` and `trigger`, and the control calls as promises. (`approver` reacts to
 * events in the mock's process, so it exists in-process only.)
 */
export interface RemoteMock extends Omit<TestKit, 'approver'> {
  /** The API base URL of the mock (`http://127.0.0.1:4010/v1`). */
  readonly url: string;
  /** Forgets every organization, object, event, pending delivery and fault. */
  reset(): Promise<void>;
  /** The whole state, the same JSON as `mock.snapshot()`. */
  snapshot(): Promise<MockSnapshot>;
  /** Replaces the state with a snapshot (of this mock or any other). */
  restore(snapshot: MockSnapshot): Promise<void>;
  /** Resolves once no due work is left and every webhook attempt started has finished. */
  idle(): Promise<void>;
  /** Every organization's test clock: read one by key, or advance them all. */
  clock: RemoteClock;
  /** Faults on demand, as `mock.faults`. */
  faults: RemoteFaults;
  /** The events of a key's organization, oldest first, in its variant's names and envelope. */
  events: RemoteEvents;
  /** The webhook deliveries of a key's organization, newest first, as the API shows them. */
  deliveries(apiKey: string): Promise<unknown[]>;
  /** Stops the local receiver of the inboxes (the mock keeps running). */
  close(): Promise<void>;
}

/** A remote mock's test clocks. */
export interface RemoteClock {
  /** The test-clock time of a key's organization (a key not used yet: the base time), or the base time. */
  now(apiKey?: string): Promise<Date>;
  /** Advances every organization's clock by `seconds`, running what falls due in time order. */
  advance(seconds: number): Promise<void>;
}

/** A remote mock's faults, as `mock.faults`. */
export interface RemoteFaults {
  /** Faults the matching requests; a bad option rejects with a ControlError (400 naming it). */
  inject(options: FaultOptions): Promise<RemoteFaultHandle>;
  /** The faults in force, in the order they apply. */
  list(): Promise<FaultInfo[]>;
  /** Removes one fault; false when it was already gone. */
  remove(id: string): Promise<boolean>;
  /** Removes every fault. */
  clear(): Promise<void>;
}

/** A remote mock's events. */
export interface RemoteEvents {
  /** The events of `apiKey`'s organization, oldest first, of one `type` if given. */
  list(query: { apiKey: string; type?: string }): Promise<WireEvent[]>;
}

/** A control call the mock refused: its status and the API's error body. */
export class ControlError extends Error {
  constructor(
    /** The HTTP status of the refusal. */
    readonly status: number,
    /** The answer's body, in the API's error format. */
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: the mock's control API answered ${status} ${JSON.stringify(body)}`);
    this.name = 'ControlError';
  }
}

/**
 * Connects to a standalone mock started with `--control` (or `startMockServer({ control: true })`): `url` is its API
 * base URL or origin. Webhook inboxes receive on 127.0.0.1 in this process and verify like the in-process ones.
 *
 * @example
 * ```ts
 * const mock = await connectMock('http://127.0.0.1:4010/v1', { token: process.env.CARDRAIL_CONTROL_TOKEN! });
 * const seeded = await mock.snapshot();
 * beforeEach(() => mock.restore(seeded));
 * ```
 */
export async function connectMock(url: string, options: ConnectMockOptions): Promise<RemoteMock> {
  const origin = new URL(url).origin;
  const apiUrl = `${origin}${API_BASE_PATH}`;
  const fetchOf = () => options.fetch ?? globalThis.fetch;
  const call = async (what: string, method: string, path: string, init: { body?: unknown; apiKey?: string } = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}` };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (init.apiKey !== undefined) headers['Cardrail-Api-Key'] = init.apiKey;
    const response = await fetchOf()(`${origin}${CONTROL_BASE_PATH}${path}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    const body: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) throw new ControlError(response.status, body, what);
    return body;
  };
  // Fails at once, with the reason, when the mock has no control API or the token is wrong.
  await call('connectMock', 'GET', '/clock');

  const ids = new IdFactory(cryptoRandom);
  const inboxes = new InboxServer();
  const keysOfClients = new WeakMap<object, string>();
  const variantOf = async (apiKey: string): Promise<Variant> =>
    ((await call('variant', 'GET', '/organization', { apiKey }).catch(() => undefined)) as { variant?: Variant } | undefined)
      ?.variant ?? 'customer';
  const client = <V extends Variant = 'customer'>(clientOptions: TestClientOptions & { variant?: V; apiKey?: string } = {}) => {
    const { apiKey = ids.apiKey('test'), variant, ...rest } = clientOptions;
    const config: ClientOptions = { maxRetries: 0, ...rest, apiKey, baseUrl: apiUrl, fetch: (request) => fetchOf()(request) };
    const made = variant === 'user' ? new Users(config) : new Cardrail(config);
    keysOfClients.set(made, apiKey);
    return made as TestClient<V>;
  };
  const withClient = async <T extends ClientOrKey>(given: T): Promise<T & { client: Cardrail | CardrailUsers }> => ({
    ...given,
    client: await clientOf(given, async ({ apiKey, variant }) =>
      client({ apiKey, variant: variant ?? (await variantOf(apiKey)) }),
    ),
  });
  // A key the mock has not seen yet has no organization: its clock would start from the base clock, as it is now.
  const now = async (apiKey?: string) => {
    const known =
      apiKey === undefined ? undefined : await call('clock.now', 'GET', '/organization', { apiKey }).catch(absentOn404);
    const answer = (known ?? (await call('clock.now', 'GET', '/clock'))) as { now: string };
    return new Date(answer.now);
  };

  return {
    url: apiUrl,
    client,
    webhookInbox: (async (given: WebhookInboxOptions<Cardrail | CardrailUsers>) => {
      await inboxes.start();
      return createWebhookInbox(
        {
          router: inboxes,
          nextId: () => ids.next('webhook').replace(/^wh_/, 'inbox_'),
          nowSeconds: async (inboxClient) => {
            const apiKey = keysOfClients.get(inboxClient);
            if (apiKey === undefined) {
              throw new TypeError('webhookInbox() needs a client made by mock.client() of this mock, or { apiKey }.');
            }
            return Math.floor((await now(apiKey)).getTime() / 1000);
          },
        },
        await withClient(given),
      );
    }) as TestKit['webhookInbox'],
    cardholder: (async (given: CardholderOptions<Cardrail | CardrailUsers>) =>
      createCardholder(await withClient(given))) as TestKit['cardholder'],
    trigger: (async (type: string, given: TriggerOptions<Cardrail | CardrailUsers>) =>
      (await triggerEvent(given.client, type, { time: given.time ?? 'advance' })).event) as TestKit['trigger'],
    reset: async () => {
      await call('reset', 'POST', '/reset');
    },
    snapshot: async () => (await call('snapshot', 'GET', '/snapshot')) as MockSnapshot,
    restore: async (snapshot) => {
      await call('restore', 'PUT', '/snapshot', { body: snapshot });
    },
    idle: async () => {
      await call('idle', 'POST', '/idle');
    },
    clock: {
      now,
      advance: async (seconds) => {
        await call('clock.advance', 'POST', '/clock/advance', { body: { seconds } });
      },
    },
    faults: {
      inject: async (faultOptions) => {
        const { id } = (await call('faults.inject', 'POST', '/faults', { body: faultOptions })) as FaultInfo;
        const path = `/faults/${encodeURIComponent(id)}`;
        return {
          id,
          info: () => call('fault', 'GET', path).then((info) => info as FaultInfo, absentOn404),
          clear: async () => {
            await call('fault.clear', 'DELETE', path).catch(absentOn404);
          },
        };
      },
      list: async () => ((await call('faults.list', 'GET', '/faults')) as { data: FaultInfo[] }).data,
      remove: (id) =>
        call('faults.remove', 'DELETE', `/faults/${encodeURIComponent(id)}`).then(
          () => true,
          (error: unknown) => absentOn404(error) ?? false,
        ),
      clear: async () => {
        await call('faults.clear', 'DELETE', '/faults');
      },
    },
    events: {
      list: async ({ apiKey, type }) => {
        const query = type === undefined ? '' : `?type=${encodeURIComponent(type)}`;
        return ((await call('events.list', 'GET', `/events${query}`, { apiKey })) as { data: WireEvent[] }).data;
      },
    },
    deliveries: async (apiKey) => ((await call('deliveries', 'GET', '/deliveries', { apiKey })) as { data: unknown[] }).data,
    close: () => inboxes.close(),
  };
}

/** A fault already gone (used up, cleared) is no error for the handle. */
function absentOn404(error: unknown): undefined {
  if (error instanceof ControlError && error.status === 404) return undefined;
  throw error;
}

import type { Server } from 'node:http';
import { API_BASE_PATH } from '../http/app.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body-limit.js';
import { type CorsOrigins, withCors } from '../http/cors.js';
import { composeMockServer, type MockServer } from '../composition/mock-server.js';
import type { MockServerOptions } from '../composition/options.js';
import { deferredTestKit, type TestKitModule } from '../testkit/deferred-test-kit.js';
import { DASHBOARD_PATH, dashboardApprovalPage } from './dashboard-assets.js';
import { nodeApiHandler } from './node-answer.js';
import { createLimitedServer, listen, ServerAddress } from './node-listener.js';
import { routesBesideApi } from './routes-beside-api.js';
import type { ServerLimits } from './server-limits.js';
import { createWebhookFetch, type WebhookFetch } from './webhook-fetch.js';
import type { SqliteStateStore, StateStoreOptions } from './sqlite/store.js';
import type { PgStateStore, PostgresStateOptions } from './postgres/store.js';
import { isDatabaseUrl } from './postgres/url.js';
import { WebhookUrlPolicy } from '../webhooks/url-policy.js';
import { CONTROL_BASE_PATH } from '../testkit/control-path.js';
import { type ControlOptions, type RunningControl, resolveControl } from './control-options.js';

/** Options of `startMockServer`: the mock's options, where to listen, limits, CORS and durable state. */
export interface NodeServerOptions extends MockServerOptions, Partial<ServerLimits> {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Keeps the whole state in this directory (docs/standalone-server.md#durable-state), in SQLite through Node's
   * built-in node:sqlite (Node.js 22.13 or newer): every change written before its answer, organizations read on
   * demand. A path, or the store's options. Or in PostgreSQL, shared with every instance given the same database
   * (docs/standalone-server.md#several-instances-on-one-database): a `postgres://user:password@host:port/db` URL, or
   * `{ url, poolSize, limits }`.
   */
  state?: string | StateStoreOptions | PostgresStateOptions | undefined;
  /** On close, how long webhook attempts in flight may take to finish (the rest stay pending). Default 0. */
  drainTimeoutMs?: number | undefined;
  /** Browser origins that may call the server (CORS): `*` (the default) or a list; `false` turns CORS off. */
  cors?: CorsOrigins | false;
  /** Serve the dashboard at the server's root (default true; the CLI's `--no-dashboard` sets false). */
  dashboard?: boolean;
  /**
   * Serve the test kit over HTTP at `/__cardrail/` (reset, snapshot, restore, clocks, events, deliveries, faults) for
   * `connectMock` and suites in other processes: `true`, or a token and whether a non-loopback bind is allowed.
   */
  control?: boolean | ControlOptions | undefined;
}

/** A mock listening on a port. */
export interface RunningMockServer {
  /** The mock behind the server: its clock, events, `reset`, `idle`. */
  mock: MockServer;
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  /** The port it listens on (the one picked when asked for 0). */
  port: number;
  /** With `state`, when the directory already held a state: what it holds (read on demand, not at start). */
  restored:
    | {
        /** Objects, events and delivery records stored. */
        records: number;
        /** Organizations and modes stored. */
        organizations: number;
        /** When the directory was in the journal format of earlier releases: the records imported from it at this start. */
        importedFromJournal?: number | undefined;
      }
    | undefined;
  /** The dashboard's address, e.g. http://127.0.0.1:4010/; undefined when it is turned off. */
  dashboardUrl?: string;
  /** With `control`: where the control API answers (`http://127.0.0.1:4010/__cardrail`) and its token. */
  control?: RunningControl | undefined;
  /**
   * Stops accepting connections, lets webhook attempts in flight finish for up to `drainTimeoutMs`, writes the
   * state (deliveries without an outcome stay pending) or forgets it (without `state`), ends open connections and
   * resolves when closed.
   */
  close(options?: { drainTimeoutMs?: number }): Promise<void>;
}

/**
 * The Node server of `startMockServer` (node.ts) and of the CLI: `testKit` is the test kit's module loading
 * (`mock.client()` and the rest work once it has loaded, and this resolves only then); the CLI passes none, since
 * nothing reaches its mock in-process, and so never loads the SDK's clients. Its parts: the store (`openStore`), the
 * mock, the API's requests on node:http (node-answer.ts), the routes beside the API (the dashboard and the control
 * API: routes-beside-api.ts), listening with limits (node-listener.ts), and shutting down (`shutdown`).
 */
export async function serveMock(
  options: NodeServerOptions,
  testKit: Promise<TestKitModule> | undefined,
): Promise<RunningMockServer> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const address = new ServerAddress(options.host ?? '127.0.0.1');
  const controlToken = resolveControl(options.control, address.host);
  // Deliveries share keep-alive connections, a few per receiver (unless the caller brings its own fetch).
  const pool = options.fetch ? undefined : webhookPool(options);
  let close: (drainTimeoutMs?: number) => Promise<void> = () => Promise.resolve();
  const store = await openStore(options, () => void close(0));
  const servesDashboard = options.dashboard !== false;
  let mock: MockServer;
  try {
    const mockOptions = {
      ...options,
      maxBodyBytes,
      fetch: options.fetch ?? pool?.fetch,
      journal: store,
      // The dashboard's page of each intent, unless the caller names another: its origin is known once listening.
      approvalPage: options.approvalPage ?? (servesDashboard ? dashboardApprovalPage(() => address.pageOrigin) : undefined),
    };
    mock = composeMockServer(mockOptions, deferredTestKit(testKit));
  } catch (error) {
    await store?.close();
    throw error;
  }
  const api = nodeApiHandler(withCors(mock.dispatch, options.cors ?? '*'), address, maxBodyBytes);
  // The control API's modules load only for a server that serves it.
  const control = controlToken && (await import('../testkit/control-api.js')).createControlApi(mock, controlToken);
  const beside = routesBesideApi({ dashboard: servesDashboard, control }, address);
  const server = createLimitedServer(options, (incoming, outgoing) => {
    if (!beside(incoming, outgoing)) api(incoming, outgoing);
  });
  close = shutdown({ server, mock, pool, store }, options.drainTimeoutMs ?? 0);
  let port: number;
  try {
    port = await listen(server, options.port ?? 4010, address);
  } catch (error) {
    pool?.close();
    await store?.close();
    throw error;
  }
  try {
    await testKit;
  } catch (error) {
    await close(0);
    throw error;
  }
  const { origin } = address;
  return {
    mock,
    url: `${origin}${API_BASE_PATH}`,
    port,
    restored: restoredFrom(store),
    dashboardUrl: servesDashboard ? `${origin}${DASHBOARD_PATH}` : undefined,
    control: controlToken && {
      url: `${origin}${CONTROL_BASE_PATH}`,
      token: controlToken.token,
      tokenGenerated: controlToken.generated,
    },
    close: (closeOptions) => close(closeOptions?.drainTimeoutMs),
  };
}

function webhookPool(options: NodeServerOptions): WebhookFetch {
  return createWebhookFetch({
    policy: new WebhookUrlPolicy(options.allowWebhookHosts),
    perOrigin: options.webhookAttemptsPerOrigin,
    idlePerOrigin: options.webhookAttemptsPerOrganization,
    total: options.webhookAttemptsInFlight,
  });
}

type Store = SqliteStateStore | PgStateStore;

/**
 * The durable store of `state`, loaded only then (a server without one never reads its modules): a PostgreSQL
 * database for a `postgres://` URL, else a SQLite state directory. Damage met while running (a record that fails its
 * checksum) stops a server on a state directory, unless the caller handles it: nothing more is answered from that state.
 */
async function openStore(options: NodeServerOptions, stop: () => void): Promise<Store | undefined> {
  const state = options.state;
  if (state === undefined) return undefined;
  if (typeof state === 'string' ? isDatabaseUrl(state) : 'url' in state) {
    const { PgStateStore } = await import('./postgres/store.js');
    const frozen = options.frozenClock === undefined ? undefined : new Date(options.frozenClock).toISOString();
    return PgStateStore.open({
      ...(typeof state === 'string' ? { url: state } : (state as PostgresStateOptions)),
      clock: frozen === undefined ? 'running' : `frozen@${frozen}`,
    });
  }
  const stateOptions = typeof state === 'string' ? { path: state } : (state as StateStoreOptions);
  const { SqliteStateStore } = await import('./sqlite/store.js');
  return SqliteStateStore.open({
    ...stateOptions,
    onDamage:
      stateOptions.onDamage ??
      ((error) => {
        console.error(`[cardrail-mock] ${error.message}; stopping`);
        process.exitCode = 1;
        stop();
      }),
  });
}

/** What a state held at start, as `RunningMockServer.restored` reports it. */
function restoredFrom(store: Store | undefined): RunningMockServer['restored'] {
  if (!store?.summary.existing) return undefined;
  const { summary } = store;
  const imported = 'imported' in summary ? summary.imported?.records : undefined;
  return { records: summary.records, organizations: summary.organizations, importedFromJournal: imported };
}

/**
 * Closing, once however often asked: no new connections, webhook attempts in flight drained for up to the deadline,
 * the store closed (or, without one, the state let go), and the open connections ended.
 */
function shutdown(
  parts: { server: Server; mock: MockServer; pool: WebhookFetch | undefined; store: Store | undefined },
  defaultDrainMs: number,
): (drainTimeoutMs?: number) => Promise<void> {
  const { server, mock, pool, store } = parts;
  let closing: Promise<void> | undefined;
  return (drainTimeoutMs = defaultDrainMs) => {
    closing ??= (async () => {
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      server.closeIdleConnections();
      await mock.stop(drainTimeoutMs);
      pool?.close();
      if (store) await store.close();
      // Without a store there is nothing to keep: the state is let go.
      else mock.reset();
      // Keep-alive connections would hold close() open; nothing is mid-answer that matters on shutdown.
      server.closeAllConnections();
      await closed.catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ERR_SERVER_NOT_RUNNING') throw error;
      });
    })();
    return closing;
  };
}

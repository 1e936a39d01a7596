import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { internalError } from '../core/errors.js';
import { ConnectionDropped } from '../core/faults.js';
import { API_BASE_PATH } from '../http/app.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body-limit.js';
import { type CorsOrigins, withCors } from '../http/cors.js';
import type { WireResponse } from '../http/response.js';
import { composeMockServer, type MockServer } from '../composition/mock-server.js';
import type { MockServerOptions } from '../composition/options.js';
import { deferredTestKit, type TestKitModule } from '../testkit/deferred-test-kit.js';
import { createDashboardHandler, DASHBOARD_PATH, dashboardApprovalPage } from './dashboard-assets.js';
import { nodeBuiltin } from './node-builtins.js';
import { lingerOnUnreadBody, NodeApiRequest } from './node-request.js';
import { SERVER_LIMIT_DEFAULTS, type ServerLimits } from './server-limits.js';
import { createWebhookFetch } from './webhook-fetch.js';
import type { SqliteStateStore, StateStoreOptions } from './sqlite/store.js';
import { WebhookUrlPolicy } from '../webhooks/url-policy.js';
import { CONTROL_BASE_PATH, createControlApi } from '../testkit/control-api.js';
import { CONTROL_MAX_BODY_BYTES, type ControlOptions, type RunningControl, resolveControl } from './control-options.js';

/** Options of `startMockServer`: the mock's options, where to listen, limits, CORS and durable state. */
export interface NodeServerOptions extends MockServerOptions, Partial<ServerLimits> {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Keeps the whole state in this directory (docs/standalone-server.md#durable-state), in SQLite through Node's
   * built-in node:sqlite (Node.js 22.13 or newer): every change written before its answer, organizations read on
   * demand. A path, or the store's options.
   */
  state?: string | StateStoreOptions | undefined;
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
 * nothing reaches its mock in-process, and so never loads the SDK's clients.
 */
export async function serveMock(
  options: NodeServerOptions,
  testKit: Promise<TestKitModule> | undefined,
): Promise<RunningMockServer> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const controlToken = resolveControl(options.control, options.host ?? '127.0.0.1');
  const limits: ServerLimits = { ...SERVER_LIMIT_DEFAULTS, ...definedOnly(options) };
  // Deliveries share keep-alive connections, a few per receiver (unless the caller brings its own fetch).
  const pool = options.fetch
    ? undefined
    : createWebhookFetch({
        policy: new WebhookUrlPolicy(options.allowWebhookHosts),
        perOrigin: options.webhookAttemptsPerOrigin,
        total: options.webhookAttemptsInFlight,
      });
  let closing: Promise<void> | undefined;
  let close: (drainTimeoutMs?: number) => Promise<void> = () => Promise.resolve();
  const stateOptions = typeof options.state === 'string' ? { path: options.state } : options.state;
  // The SQLite store loads only with `state`: a server without one never reads its modules.
  const store: SqliteStateStore | undefined = stateOptions
    ? (await import('./sqlite/store.js')).SqliteStateStore.open({
        ...stateOptions,
        // Damage met while running (a record that fails its checksum): nothing more is answered from this state.
        onDamage:
          stateOptions.onDamage ??
          ((error) => {
            console.error(`[cardrail-mock] ${error.message}; stopping`);
            process.exitCode = 1;
            void close(0);
          }),
      })
    : undefined;
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  let origin = `http://${hostForUrl}`;
  // A person opens the approval page in a browser, which cannot reach "every interface": loopback names this machine.
  const pageHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : hostForUrl;
  let pageOrigin = `http://${pageHost}`;
  const servesDashboard = options.dashboard !== false;
  let mock: MockServer;
  try {
    const mockOptions = {
      ...options,
      maxBodyBytes,
      fetch: options.fetch ?? pool?.fetch,
      journal: store,
      // The dashboard's page of each intent, unless the caller names another: its origin is known once listening.
      approvalPage: options.approvalPage ?? (servesDashboard ? dashboardApprovalPage(() => pageOrigin) : undefined),
    };
    mock = composeMockServer(mockOptions, deferredTestKit(testKit));
  } catch (error) {
    await store?.close();
    throw error;
  }
  const dispatch = withCors(mock.dispatch, options.cors ?? '*');

  const write = (incoming: IncomingMessage, outgoing: ServerResponse, request: NodeApiRequest, answer: WireResponse): void => {
    if (outgoing.destroyed) return;
    const body = request.method === 'HEAD' ? '' : answer.body;
    answer.headers['Content-Length'] = String(Buffer.byteLength(answer.body));
    // A request that announced no body has nothing left to read (its message may just not be marked complete yet).
    if (!incoming.complete && request.bodyText === undefined) outgoing.once('finish', () => lingerOnUnreadBody(incoming));
    outgoing.writeHead(answer.status, answer.headers);
    outgoing.end(body);
  };
  const failed = (outgoing: ServerResponse, error: unknown): void => {
    // A fault's dropped connection: closed without an answer, as a failing network would.
    if (error instanceof ConnectionDropped) {
      outgoing.socket?.destroy();
      return;
    }
    console.error('[cardrail-mock] transport error', error);
    if (outgoing.headersSent || outgoing.destroyed) return;
    outgoing.writeHead(500, { 'Content-Type': 'application/json', Connection: 'close' });
    outgoing.end(JSON.stringify(internalError().toBody()));
  };

  /** Writes a request's answer when it is ready; a promise while it is not. */
  const serve = (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> | undefined => {
    const request = new NodeApiRequest(incoming, origin, maxBodyBytes);
    try {
      const result = dispatch(request);
      if (!(result instanceof Promise)) {
        write(incoming, outgoing, request, result);
        return undefined;
      }
      return result.then(
        (wire) => write(incoming, outgoing, request, wire),
        (error: unknown) => failed(outgoing, error),
      );
    } catch (error) {
      failed(outgoing, error);
      return undefined;
    }
  };
  // Requests pipelined on one connection take effect in the order they arrived: while one is still being answered
  // (its body arriving, its operation's checks loading on first use), the connection's later requests wait for it.
  const ahead = new WeakMap<Socket, Promise<void>>();
  const inOrder = (socket: Socket, pending: Promise<void>): void => {
    ahead.set(socket, pending);
    void pending.finally(() => {
      if (ahead.get(socket) === pending) ahead.delete(socket);
    });
  };

  const dashboard = servesDashboard ? createDashboardHandler() : undefined;
  const control = controlToken && createControlApi(mock, controlToken);
  /** A control call (`/__cardrail/...`): its own handler, its own body limit (a snapshot can be large). */
  const serveControl = (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    const path = incoming.url ?? '';
    if (
      !control ||
      !(path === CONTROL_BASE_PATH || path.startsWith(`${CONTROL_BASE_PATH}/`) || path.startsWith(`${CONTROL_BASE_PATH}?`))
    ) {
      return false;
    }
    const request = new NodeApiRequest(incoming, origin, CONTROL_MAX_BODY_BYTES);
    control(request).then(
      (wire) => write(incoming, outgoing, request, wire),
      (error: unknown) => failed(outgoing, error),
    );
    return true;
  };
  const server = nodeBuiltin('node:http').createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs || Infinity),
    },
    (incoming, outgoing) => {
      if (dashboard?.(incoming, outgoing) || serveControl(incoming, outgoing)) return;
      const socket = incoming.socket;
      const before = ahead.get(socket);
      const pending = before ? before.then(() => serve(incoming, outgoing)) : serve(incoming, outgoing);
      if (pending) inOrder(socket, pending);
    },
  );
  server.maxConnections = limits.maxConnections;
  close = (drainTimeoutMs = options.drainTimeoutMs ?? 0) => {
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
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, host, () => {
        server.off('error', reject);
        // Known before the first request is read: requests and approval pages name the port picked for 0.
        const { port } = server.address() as AddressInfo;
        origin = `http://${hostForUrl}:${port}`;
        pageOrigin = `http://${pageHost}:${port}`;
        resolve();
      });
    });
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
  // A server listening on TCP reports an AddressInfo (a string only for a pipe or socket path).
  const port = (server.address() as AddressInfo).port;
  return {
    mock,
    url: `${origin}${API_BASE_PATH}`,
    port,
    restored: store?.summary.existing
      ? {
          records: store.summary.records,
          organizations: store.summary.organizations,
          importedFromJournal: store.summary.imported?.records,
        }
      : undefined,
    dashboardUrl: dashboard ? `${origin}${DASHBOARD_PATH}` : undefined,
    control: controlToken && {
      url: `${origin}${CONTROL_BASE_PATH}`,
      token: controlToken.token,
      tokenGenerated: controlToken.generated,
    },
    close: (closeOptions) => close(closeOptions?.drainTimeoutMs),
  };
}

function definedOnly(options: Partial<ServerLimits>): Partial<ServerLimits> {
  const out: Partial<ServerLimits> = {};
  for (const name of Object.keys(SERVER_LIMIT_DEFAULTS) as (keyof ServerLimits)[]) {
    const value = options[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

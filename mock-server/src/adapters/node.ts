import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_BASE_PATH } from '../http/app.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/body-limit.js';
import type { WireResponse } from '../http/response.js';
import { createMockServer, type MockServer, type MockServerOptions } from '../server.js';
import { lingerOnUnreadBody, NodeApiRequest } from './node-request.js';
import { SERVER_LIMIT_DEFAULTS, type ServerLimits } from './server-limits.js';
import { createWebhookFetch } from './webhook-fetch.js';
import { WebhookUrlPolicy } from '../webhooks/url-policy.js';

export interface NodeServerOptions extends MockServerOptions, Partial<ServerLimits> {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningMockServer {
  mock: MockServer;
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  port: number;
  /** Stops accepting connections, ends open ones and resolves when closed. */
  close(): Promise<void>;
}

/**
 * Serves the mock over node:http and resolves once it listens. The adapter is thin on purpose: it hands the
 * mock's one handler (`dispatch`) a view of the request and writes the answer it gets back, in the same turn when
 * the answer was synchronous. Its own work is keeping every client bounded: the body is read only once the key is
 * known and never past the size limit, and timeouts and a connection cap are set explicitly (docs/standalone-server.md).
 */
export async function startMockServer(options: NodeServerOptions = {}): Promise<RunningMockServer> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limits: ServerLimits = { ...SERVER_LIMIT_DEFAULTS, ...definedOnly(options) };
  // Deliveries share keep-alive connections, a few per receiver (unless the caller brings its own fetch).
  const pool = options.fetch
    ? undefined
    : createWebhookFetch({
        policy: new WebhookUrlPolicy(options.allowWebhookHosts),
        perOrigin: options.webhookAttemptsPerOrigin,
        total: options.webhookAttemptsInFlight,
      });
  const mock = createMockServer({ ...options, maxBodyBytes, fetch: options.fetch ?? pool?.fetch });
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  let origin = `http://${hostForUrl}`;

  const write = (incoming: IncomingMessage, outgoing: ServerResponse, request: NodeApiRequest, answer: WireResponse): void => {
    if (outgoing.destroyed) return;
    const body = request.method === 'HEAD' ? '' : answer.body;
    answer.headers['Content-Length'] = String(Buffer.byteLength(answer.body));
    if (!incoming.complete) outgoing.once('finish', () => lingerOnUnreadBody(incoming));
    outgoing.writeHead(answer.status, answer.headers);
    outgoing.end(body);
  };
  const failed = (outgoing: ServerResponse, error: unknown): void => {
    console.error('[cardrail-mock] transport error', error);
    if (outgoing.headersSent || outgoing.destroyed) return;
    outgoing.writeHead(500, { 'Content-Type': 'application/json', Connection: 'close' });
    outgoing.end(JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.', details: null } }));
  };

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs || Infinity),
    },
    (incoming, outgoing) => {
      const request = new NodeApiRequest(incoming, origin, maxBodyBytes);
      try {
        const result = mock.dispatch(request);
        if (result instanceof Promise)
          result.then(
            (wire) => write(incoming, outgoing, request, wire),
            (error: unknown) => failed(outgoing, error),
          );
        else write(incoming, outgoing, request, result);
      } catch (error) {
        failed(outgoing, error);
      }
    },
  );
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A server listening on TCP reports an AddressInfo (a string only for a pipe or socket path).
  const port = (server.address() as AddressInfo).port;
  origin = `http://${hostForUrl}:${port}`;
  return {
    mock,
    url: `${origin}${API_BASE_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        mock.reset();
        pool?.close();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would hold close() open; nothing is mid-answer that matters on shutdown.
        server.closeAllConnections();
      }),
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

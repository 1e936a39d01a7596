import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { API_BASE_PATH } from '../http/app.js';
import type { WireResponse } from '../http/response.js';
import { createMockServer, type MockServer, type MockServerOptions } from '../server.js';
import { createDashboardHandler, DASHBOARD_PATH } from './dashboard-assets.js';
import { hasBody, NodeApiRequest } from './node-request.js';

export interface NodeServerOptions extends MockServerOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve the dashboard at the server's root (default true; the CLI's `--no-dashboard` sets false). */
  dashboard?: boolean;
}

export interface RunningMockServer {
  mock: MockServer;
  /** The API base URL, e.g. http://127.0.0.1:4010/v1. */
  url: string;
  port: number;
  /** The dashboard's address, e.g. http://127.0.0.1:4010/; undefined when it is turned off. */
  dashboardUrl?: string;
  /** Stops accepting connections, ends open ones and resolves when closed. */
  close(): Promise<void>;
}

/**
 * Serves the mock over node:http and resolves once it listens. The adapter is thin on purpose: it hands the
 * mock's one handler (`dispatch`) a view of the request and writes the answer it gets back, in the same turn when
 * the answer was synchronous.
 */
export async function startMockServer(options: NodeServerOptions = {}): Promise<RunningMockServer> {
  const mock = createMockServer(options);
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  let origin = `http://${hostForUrl}`;

  const write = (outgoing: ServerResponse, method: string, answer: WireResponse): void => {
    if (outgoing.destroyed) return;
    const body = method === 'HEAD' ? '' : answer.body;
    answer.headers['Content-Length'] = String(Buffer.byteLength(answer.body));
    outgoing.writeHead(answer.status, answer.headers);
    outgoing.end(body);
  };
  const failed = (outgoing: ServerResponse, error: unknown): void => {
    console.error('[cardrail-mock] transport error', error);
    if (outgoing.headersSent || outgoing.destroyed) return;
    outgoing.writeHead(500, { 'Content-Type': 'application/json' });
    outgoing.end(JSON.stringify({ error: { code: 'internal_error', message: 'An unexpected error occurred.', details: null } }));
  };
  const answer = (incoming: IncomingMessage, outgoing: ServerResponse, body: string): void => {
    try {
      const result = mock.dispatch(new NodeApiRequest(incoming, origin, body));
      const method = incoming.method ?? 'GET';
      if (result instanceof Promise)
        result.then(
          (wire) => write(outgoing, method, wire),
          (error: unknown) => failed(outgoing, error),
        );
      else write(outgoing, method, result);
    } catch (error) {
      failed(outgoing, error);
    }
  };

  const dashboard = options.dashboard === false ? undefined : createDashboardHandler();
  const server = createServer((incoming, outgoing) => {
    if (dashboard?.(incoming, outgoing)) return;
    if (!hasBody(incoming)) {
      answer(incoming, outgoing, '');
      // Drain anything sent anyway, so the connection stays usable.
      incoming.resume();
      return;
    }
    const decoder = new StringDecoder('utf8');
    let text = '';
    incoming.on('data', (chunk: Buffer) => (text += decoder.write(chunk)));
    incoming.on('end', () => answer(incoming, outgoing, text + decoder.end()));
    incoming.on('error', () => outgoing.destroy());
  });
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
    dashboardUrl: dashboard ? `${origin}${DASHBOARD_PATH}` : undefined,
    close: () =>
      new Promise<void>((resolve, reject) => {
        mock.reset();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would hold close() open; nothing is mid-answer that matters on shutdown.
        server.closeAllConnections();
      }),
  };
}

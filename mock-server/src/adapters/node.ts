import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { API_BASE_PATH } from '../http/app.js';
import { createMockServer, type MockServer, type MockServerOptions } from '../server.js';

export interface NodeServerOptions extends MockServerOptions {
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

/** Serves the mock over node:http (through @hono/node-server) and resolves once it listens. */
export async function startMockServer(options: NodeServerOptions = {}): Promise<RunningMockServer> {
  const mock = createMockServer(options);
  const host = options.host ?? '127.0.0.1';
  const server = createAdaptorServer({ fetch: (request: Request) => mock.handle(request) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  return {
    mock,
    url: `http://${hostForUrl}:${port}${API_BASE_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        mock.reset();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would hold close() open; nothing is mid-answer that matters on shutdown.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

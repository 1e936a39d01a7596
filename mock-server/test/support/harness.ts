import { setupServer, type SetupServer } from 'msw/node';
import { unhandled } from '../../../scripts/vitest-msw.mjs';
import { createHandlers } from '../../src/adapters/msw.js';
import { startMockServer } from '../../src/adapters/node.js';
import type { MockServer, MockServerOptions } from '../../src/index.js';
import { FROZEN_AT } from './keys.js';
import { mswReceiver, startHttpReceiver, type Receiver } from './receiver.js';

export type TransportName = 'msw' | 'node';
export const TRANSPORTS: TransportName[] = ['msw', 'node'];

export interface CallOptions {
  key: string;
  /** `customer` sends `Authorization: Bearer`, `user` sends `Api-Key`. Default customer. */
  variant?: 'customer' | 'user';
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Harness {
  name: TransportName;
  mock: MockServer;
  /** API base URL with /v1, for raw fetch and the SDK. */
  baseUrl: string;
  call<T = any>(method: string, path: string, options: CallOptions): Promise<Answer<T>>;
  /** A webhook endpoint reachable by this transport's deliveries. */
  receiver(): Promise<Receiver>;
  close(): Promise<void>;
}

/**
 * The mock behind one transport, driven through the global fetch: MSW intercepts it in-process, or it reaches
 * the node:http server on a free port. Responses are checked against the spec (validateResponses).
 */
export async function startHarness(name: TransportName, options: MockServerOptions = {}): Promise<Harness> {
  const settings: MockServerOptions = { frozenClock: FROZEN_AT, validateResponses: true, ...options };
  let mock: MockServer;
  let baseUrl: string;
  let msw: SetupServer | undefined;
  let stop: () => Promise<void>;
  const receivers: Receiver[] = [];
  if (name === 'msw') {
    const mocked = createHandlers(settings);
    const server = setupServer(...mocked.handlers);
    server.listen(unhandled('bypass'));
    msw = server;
    mock = mocked;
    baseUrl = 'http://127.0.0.1:4010/v1';
    stop = async () => msw?.close();
  } else {
    const running = await startMockServer({ ...settings, port: 0 });
    mock = running.mock;
    baseUrl = running.url;
    stop = () => running.close();
  }
  return {
    name,
    mock,
    baseUrl,
    async call(method, path, options) {
      const headers: Record<string, string> =
        options.variant === 'user' ? { 'Api-Key': options.key } : { Authorization: `Bearer ${options.key}` };
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(baseUrl + path, { method, headers: { ...headers, ...options.headers }, body });
      const text = await response.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: the test sees the text.
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async receiver() {
      const receiver = msw ? mswReceiver(msw) : await startHttpReceiver();
      receivers.push(receiver);
      return receiver;
    },
    async close() {
      for (const receiver of receivers) {
        receiver.release();
        await receiver.close();
      }
      await stop();
    },
  };
}

/**
 * The mock as MSW request handlers (`createHandlers`), for tests in Node and browsers. `msw` 2 (2.15 or newer) or 3
 * is a peer dependency: msw 3 is npm's latest and needs Node.js 22.12 or newer; msw 2 also runs on Node.js 20.
 *
 * @module @cardrail/mock-server/msw
 */
import { http, type HttpHandler } from 'msw';
import { ConnectionDropped } from '../core/faults.js';
import { API_BASE_PATH } from '../http/app.js';
import { createMockServer, type MockServer, type MockServerOptions } from '../composition/create-mock-server.js';
import { assertMswCanServe } from './msw-support.js';

/** Origins whose `/v1` the handlers answer by default: the local mock address and the production address. */
export const DEFAULT_ORIGINS = ['http://127.0.0.1:4010', 'http://localhost:4010', 'https://api.cardrail.dev'];

/** Options of `createHandlers`: the mock's options, and the base URLs to answer. */
export interface CreateHandlersOptions extends MockServerOptions {
  /**
   * API base URLs (with `/v1`) or origins to answer. Default: http://127.0.0.1:4010/v1, http://localhost:4010/v1
   * and https://api.cardrail.dev/v1.
   */
  baseUrls?: string[];
}

/** The MSW handlers of a mock, and the mock itself (its clock, events, `reset`, `idle`). */
export interface MockHandlers extends MockServer {
  /** MSW request handlers (of the msw 2 or 3 installed): `setupServer(...mock.handlers)` or `setupWorker(...)`. */
  handlers: HttpHandler[];
}

/**
 * The mock as MSW handlers, for an in-process test suite. The returned object is also the mock's control (clock,
 * events, reset, idle). Webhook deliveries use the global fetch, so a test can answer them with its own MSW handler.
 *
 * Throws at once, saying what to install, when the installed msw cannot serve the handlers here: msw 1 (no `http`),
 * or msw 3 on a Node.js older than 22.12, where its interceptors fail and requests would not reach the mock.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from '@cardrail/mock-server/msw';
 *
 * const mock = createHandlers();
 * const server = setupServer(...mock.handlers);
 * // msw 3; with msw 2: server.listen({ onUnhandledRequest: 'error' })
 * beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
 * afterEach(() => mock.reset());
 * afterAll(() => server.close());
 * ```
 */
export function createHandlers(options: CreateHandlersOptions = {}): MockHandlers {
  assertMswCanServe(http);
  const mock = createMockServer(options);
  const bases = (options.baseUrls ?? DEFAULT_ORIGINS).map((base) => {
    const trimmed = base.replace(/\/+$/, '');
    return trimmed.endsWith(API_BASE_PATH) ? trimmed.slice(0, -API_BASE_PATH.length) : trimmed;
  });
  const handlers = bases.map((origin) => {
    // The mock routes on `/v1/...`; an origin with a path prefix (a proxy path) is stripped to that.
    const prefix = new URL(origin).pathname.replace(/\/+$/, '');
    return http.all(`${origin}${API_BASE_PATH}/*`, ({ request }) =>
      mock.handle(prefix === '' ? request : stripPrefix(request, prefix)).catch(networkError),
    );
  });
  return Object.assign(mock, { handlers });
}

function stripPrefix(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length);
  return new Request(url, request);
}

/** A connection a fault dropped (`mock.faults`) is MSW's network error: the client's fetch rejects. */
function networkError(error: unknown): Response {
  if (error instanceof TypeError && error.cause instanceof ConnectionDropped) return Response.error();
  throw error;
}

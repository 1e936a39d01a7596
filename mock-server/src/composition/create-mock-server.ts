import { composeMockServer, type MockServer } from './mock-server.js';
import type { MockServerOptions } from './options.js';
import { createTestKit } from '../testkit/test-kit.js';

export type { KnownTenant, MockServer, StopReport } from './mock-server.js';
export type { MockServerOptions } from './options.js';
export type { ServerClock } from '../core/server-clock.js';

/**
 * Creates the mock: routes from the spec, state in memory, no I/O until asked. Runs wherever `Request` does (Node,
 * Bun, Deno, browsers, edge workers): each operation's validators load on its first request. Its parts are wired in
 * `composeMockServer` (composition/mock-server.ts); this one comes with its test kit (`client`, `webhookInbox`,
 * `cardholder`) ready.
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
  return composeMockServer(options, createTestKit);
}

/**
 * The mock as a Node HTTP server (`startMockServer`), what the `cardrail-mock` CLI runs.
 *
 * @module @cardrail/mock-server/node
 */
import { type NodeServerOptions, type RunningMockServer, serveMock } from './node-server.js';

export type { NodeServerOptions, RunningMockServer } from './node-server.js';

/**
 * Serves the mock over node:http and resolves once it listens. The adapter is thin on purpose: it hands the
 * mock's one handler (`dispatch`) a view of the request and writes the answer it gets back, in the same turn when
 * the answer was synchronous. Its own work is keeping every client bounded: the body is read only once the key is
 * known and never past the size limit, and timeouts and a connection cap are set explicitly (docs/standalone-server.md).
 *
 * @example
 * ```ts
 * const { url, mock, close } = await startMockServer({ port: 0 }); // a free port
 * const cardrail = new Cardrail({ apiKey: 'sk_test_example01', baseUrl: url });
 * // ... then, after the tests:
 * await close();
 * ```
 */
export function startMockServer(options: NodeServerOptions = {}): Promise<RunningMockServer> {
  // The mock's test kit (`mock.client()` and the rest) loads while the server starts answering; it is whole once this
  // resolves.
  return serveMock(options, import('../testkit/test-kit.js'));
}

export type { FsyncPolicy, StateStoreOptions } from './sqlite/store.js';
export type { PostgresStateOptions } from './postgres/store.js';
export type { SessionLimits } from './postgres/driver.js';
export { StateDamageError, StateDirectoryError } from './sqlite/errors.js';
export type { CorsOrigins } from '../http/cors.js';
export type { ServerLimits } from './server-limits.js';
export type { ControlOptions, RunningControl } from './control-options.js';
export { connectMock, type ConnectMockOptions } from './connect-mock.js';
export {
  ControlError,
  type RemoteClock,
  type RemoteEvents,
  type RemoteFaultHandle,
  type RemoteFaults,
  type RemoteMock,
} from './remote-mock.js';

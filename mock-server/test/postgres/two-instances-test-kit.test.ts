import { Cardrail, CardrailUsers } from '@cardrail/sdk';
import { afterAll, beforeAll, describe } from 'vitest';
import { connectMock, type RemoteMock, type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { CONTROL_BASE_PATH } from '../../src/testkit/control-path.js';
import { testKitSuite } from '../support/test-kit-suite.js';
import { freshDatabase } from './support/databases.js';

const TOKEN = 'control-token-two-instances-0123456789';

/**
 * The test kit's suite, which the in-process mock and a remote one pass, against two instances on one database: the
 * test kit's control calls (reset, snapshot, restore, clock, faults) go to one instance, its API clients alternate
 * between both request by request, and the app's own client talks to the instance the faults were injected through
 * (faults are held per instance: docs/standalone-server.md#what-each-instance-keeps-to-itself). Run once with the
 * control at each instance.
 */
describe('two instances on one PostgreSQL database', () => {
  const running: RunningMockServer[] = [];
  const remotes: RemoteMock[] = [];
  beforeAll(async () => {
    const url = await freshDatabase('test_kit');
    for (let i = 0; i < 2; i++) {
      running.push(await startMockServer({ port: 0, state: url, control: { token: TOKEN }, dashboard: false }));
    }
    let turn = 0;
    // API requests alternate between the two instances; control calls stay with the instance connectMock was given.
    const alternating: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      const target = new URL(request.url);
      if (target.pathname.startsWith(CONTROL_BASE_PATH)) return fetch(request);
      const other = new URL(running[turn++ % 2]?.url ?? '');
      target.host = other.host;
      return fetch(new Request(target, request));
    };
    for (const server of running) remotes.push(await connectMock(server.url, { token: TOKEN, fetch: alternating }));
  });
  afterAll(async () => {
    for (const remote of remotes) await remote.close();
    for (const server of running) await server.close();
  });

  for (const [index, name] of ['control at the first', 'control at the second'].entries()) {
    testKitSuite(`two instances, ${name}`, () => {
      const server = running[index] as RunningMockServer;
      return {
        mock: remotes[index] as RemoteMock,
        appClient: (apiKey, maxRetries = 0) => new Cardrail({ apiKey, baseUrl: server.url, maxRetries }),
        appUsersClient: (apiKey) => new CardrailUsers({ apiKey, baseUrl: server.url, maxRetries: 0 }),
      };
    });
  }
});

import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { unhandled } from '../../../scripts/vitest-msw.mjs';

/** One MSW server per test file; unhandled requests fail the test instead of reaching the network. */
export function useMswServer() {
  const server = setupServer();
  beforeAll(() => server.listen(unhandled('error')));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

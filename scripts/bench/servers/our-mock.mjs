// Our mock as a user runs it: the built CLI (mock-server/dist/cli.mjs), default flags (no rate
// limit, no request log) unless `flags` adds some, in its own process.
import { freePort } from '../lib/free-port.mjs';
import { mockCli } from '../lib/paths.mjs';
import { startServer } from '../lib/server-process.mjs';

/** A cheap authenticated call; the first call of a key also creates its organization, as for a real user. */
export const ourMockProbe = { path: '/v1/cards?limit=1', headers: { authorization: 'Bearer sk_test_benchprobe01' } };

export async function startOurMock({ pollMs, flags = [] } = {}) {
  const port = await freePort();
  return startServer({
    name: 'cardrail-mock',
    command: process.execPath,
    args: [mockCli, '--port', String(port), '--host', '127.0.0.1', ...flags],
    origin: `http://127.0.0.1:${port}`,
    probe: ourMockProbe,
    pollMs,
  });
}

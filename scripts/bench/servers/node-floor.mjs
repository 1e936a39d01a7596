// The start-up floor: the smallest Node HTTP server, `node -e` with node:http answering '{}'. Nothing starts faster
// in Node, so it shows how much of a start-up is Node itself.
import { freePort } from '../lib/free-port.mjs';
import { startServer } from '../lib/server-process.mjs';

export async function startNodeFloor({ pollMs } = {}) {
  const port = await freePort();
  return startServer({
    name: 'node:http floor',
    command: process.execPath,
    args: ['-e', `require('http').createServer((q,s)=>s.end('{}')).listen(${port},'127.0.0.1')`],
    origin: `http://127.0.0.1:${port}`,
    probe: { path: '/', headers: {} },
    pollMs,
  });
}

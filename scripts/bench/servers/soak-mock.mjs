// The built mock for the soak, in a child process run with --expose-gc: `node --expose-gc soak-mock.mjs <port>
// <control port>`. The API on <port> (startMockServer, default options), and on <control port> GET /heap, which
// forces a full garbage collection and answers { heapUsed, rss } in bytes.
import http from 'node:http';
import { startMockServer } from '../../../mock-server/dist/node.mjs';

const [port, controlPort] = process.argv.slice(2).map(Number);
await startMockServer({ port, host: '127.0.0.1' });
http
  .createServer((_request, response) => {
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ heapUsed, rss }));
  })
  .listen(controlPort, '127.0.0.1');

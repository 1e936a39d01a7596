// A port that is free on 127.0.0.1 right now (the OS picks it), for servers whose readiness we poll over HTTP.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

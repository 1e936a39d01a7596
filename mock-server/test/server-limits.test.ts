// The Node server's explicit limits (docs/standalone-server.md#timeouts-and-connections): slow headers, slow
// bodies and idle keep-alive connections are cut after their timeouts, and connections beyond the cap are closed as
// they arrive. Short limits here; the defaults are in SERVER_LIMIT_DEFAULTS.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { SERVER_LIMIT_DEFAULTS } from '../src/adapters/server-limits.js';
import { newKey } from './support/keys.js';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Milliseconds until the server closes the socket (or `limit`, if it does not). */
function closedAfter(socket: Socket, limit: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(limit), limit);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
    socket.resume();
  });
}

describe('Node server limits', () => {
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await startMockServer({
      port: 0,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      keepAliveTimeoutMs: 200,
      maxConnections: 4,
    });
  });
  afterAll(() => running.close());

  it('closes a connection whose headers do not arrive in time', async () => {
    const socket = await open(running.port);
    socket.write('GET /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await closedAfter(socket, 3_000)).toBeLessThan(2_000);
  });

  it('closes a connection whose body does not arrive in time', async () => {
    const socket = await open(running.port);
    socket.write(
      `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${newKey()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em`,
    );
    expect(await closedAfter(socket, 3_000)).toBeLessThan(2_500);
  });

  it('closes an idle keep-alive connection', async () => {
    const socket = await open(running.port);
    socket.write(`GET /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${newKey()}\r\n\r\n`);
    // Node closes it a little after the timeout (it checks with a margin); Node's own default is 5 s.
    expect(await closedAfter(socket, 4_000)).toBeLessThan(3_000);
  });

  it('closes connections beyond the cap as they arrive, and takes new ones once others end', async () => {
    const held = await Promise.all([0, 1, 2, 3].map(() => open(running.port)));
    // Let the server count them before the next one arrives.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await open(running.port);
    expect(await closedAfter(extra, 1_000)).toBeLessThan(1_000);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await fetch(`${running.url}/customers`, { headers: { Authorization: `Bearer ${newKey()}` } });
    expect(answer.status).toBe(200);
  });

  it('has documented defaults for every limit', () => {
    expect(SERVER_LIMIT_DEFAULTS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 512,
    });
  });
});

// The Node server's explicit limits (docs/standalone-server.md#timeouts-and-connections): slow headers, slow
// bodies and idle keep-alive connections are cut after their timeouts, and connections beyond the cap are closed as
// they arrive. Short limits here; the defaults are in SERVER_LIMIT_DEFAULTS (10 s for headers, 30 s for a request,
// 5 s idle). Each test waits for what it expects, and a bound tells the short limit from the default with room for a
// loaded machine: no fixed pause, no time that a busy two-core machine misses.
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
    expect(await closedAfter(socket, 9_000)).toBeLessThan(9_000);
  });

  it('closes a connection whose body does not arrive in time', async () => {
    const socket = await open(running.port);
    socket.write(
      `POST /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${newKey()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em`,
    );
    expect(await closedAfter(socket, 20_000)).toBeLessThan(20_000);
  });

  it('closes an idle keep-alive connection', async () => {
    const socket = await open(running.port);
    socket.write(`GET /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${newKey()}\r\n\r\n`);
    // Node closes it a little after the timeout (it checks with a margin); the default is 5 s.
    expect(await closedAfter(socket, 4_500)).toBeLessThan(4_500);
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

describe('Node server connection cap', () => {
  // Long timeouts here: the held connections must stay open for as long as a loaded machine takes.
  let running: RunningMockServer;
  beforeAll(async () => {
    running = await startMockServer({
      port: 0,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 60_000,
      maxConnections: 4,
    });
  });
  afterAll(() => running.close());

  /**
   * Opens a connection and sends a request on it: the connection and its first chunk of answer, or undefined when the
   * server closed it instead. Once answered, the server counts the connection.
   */
  async function request(): Promise<{ socket: Socket; answer: string } | undefined> {
    const socket = await open(running.port);
    socket.on('error', () => undefined);
    const answer = new Promise<string | undefined>((resolve) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1')));
      socket.once('close', () => resolve(undefined));
    });
    socket.write(`GET /v1/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${newKey()}\r\n\r\n`);
    const text = await answer;
    return text === undefined ? undefined : { socket, answer: text };
  }

  it('closes connections beyond the cap as they arrive, and takes new ones once others end', async () => {
    const held = await Promise.all([0, 1, 2, 3].map(request));
    expect(held.map((answered) => answered?.answer.split('\r\n')[0])).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    const extra = await open(running.port);
    // The default cap (512) would keep it open until its 60 s headers timeout.
    expect(await closedAfter(extra, 20_000)).toBeLessThan(20_000);
    for (const answered of held) answered?.socket.destroy();
    // The server counts the ends as it reads them: a new connection is answered as soon as it has (closed before).
    let next: Awaited<ReturnType<typeof request>>;
    for (const deadline = Date.now() + 20_000; next === undefined && Date.now() < deadline; ) next = await request();
    expect(next?.answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    next?.socket.destroy();
  });
});

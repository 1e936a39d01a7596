// What webhook delivery may cost (docs/webhooks.md#connections): deliveries share a few keep-alive connections per
// receiver, so one that never answers holds at most its cap of sockets while the API keeps answering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { FROZEN_AT, newKey } from './support/keys.js';

interface CountingReceiver {
  url: string;
  /** Connections open right now, the most seen at once, and every connection ever made. */
  open(): number;
  peak(): number;
  connections(): number;
  requests(): number;
  close(): Promise<void>;
}

/** A receiver that counts its connections; `hang` never answers (the mock's timeout ends each attempt). */
async function countingReceiver(behaviour: 'hang' | 'ok'): Promise<CountingReceiver> {
  const sockets = new Set<Socket>();
  let peak = 0;
  let connections = 0;
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    request.resume();
    if (behaviour === 'ok') request.on('end', () => response.writeHead(204).end());
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    // Gone as soon as the mock ends it ('close' itself comes a turn later, possibly after the next connection).
    const gone = () => sockets.delete(socket);
    socket.on('end', gone);
    socket.on('error', gone);
    socket.on('close', gone);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    open: () => sockets.size,
    peak: () => peak,
    connections: () => connections,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhook connections', () => {
  const started: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of started.splice(0).reverse()) await thing.close();
  });

  async function server(options: Parameters<typeof startMockServer>[0] = {}): Promise<RunningMockServer> {
    const running = await startMockServer({ port: 0, frozenClock: FROZEN_AT, ...options });
    started.push(running);
    return running;
  }

  async function fanOut(running: RunningMockServer, url: string, customers: number): Promise<string> {
    const key = newKey();
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    await fetch(`${running.url}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['*'] }) });
    // All at once: their deliveries overlap, as under load.
    const created = await Promise.all(
      Array.from({ length: customers }, (_, i) =>
        fetch(`${running.url}/customers`, { method: 'POST', headers, body: JSON.stringify({ email: `c${i}@example.com` }) }),
      ),
    );
    for (const answer of created) expect(answer.status).toBe(201);
    return key;
  }

  it('holds at most 8 sockets to a receiver that never answers, and keeps answering the API', async () => {
    const hanging = await countingReceiver('hang');
    started.push(hanging);
    const running = await server({ webhookTimeoutMs: 300 });
    // 25 customers: 50 deliveries (user.created and verification.initiated each).
    const key = await fanOut(running, hanging.url, 25);
    const api = await fetch(`${running.url}/customers?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    expect(((await api.json()) as { data: unknown[] }).data).toHaveLength(25);
    // Attempts keep their turn: all 50 are made, 8 at a time, each cut by the 300 ms timeout.
    for (let waited = 0; hanging.requests() < 50 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(hanging.requests()).toBe(50);
    expect(hanging.peak()).toBeLessThanOrEqual(8);
    expect(hanging.peak()).toBeGreaterThan(1);
  });

  it('reuses kept-alive connections for the deliveries to one receiver', async () => {
    const fast = await countingReceiver('ok');
    started.push(fast);
    const running = await server();
    await fanOut(running, fast.url, 25);
    await running.mock.idle();
    expect(fast.requests()).toBe(50);
    expect(fast.connections()).toBeLessThanOrEqual(8);
  });
});

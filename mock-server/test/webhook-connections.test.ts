// What webhook delivery may cost (docs/webhooks.md#connections): deliveries share a few keep-alive connections per
// receiver, so one that never answers holds at most its cap of sockets while the API keeps answering; each
// organization has its own share of a receiver, so one organization's queue never holds up another's deliveries or
// its clock advance, which waits for attempts at most its stated limit (docs/test-helpers.md#the-test-clock).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { waitMs } from '../../scripts/lib/test-waits.mjs';
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
/**
 * `heldForMs`: how long the mock may hold an attempt (its webhook timeout). A socket older than that has been ended by
 * the mock even when its 'end' has not reached us yet: on a busy machine it can come after the next connection.
 */
async function countingReceiver(behaviour: 'hang' | 'ok', heldForMs = Number.POSITIVE_INFINITY): Promise<CountingReceiver> {
  const sockets = new Map<Socket, number>();
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
    const openedAt = performance.now();
    sockets.set(socket, openedAt);
    // Gone as soon as the mock ends it ('close' itself comes a turn later, possibly after the next connection).
    const gone = () => sockets.delete(socket);
    socket.on('end', gone);
    socket.on('error', gone);
    socket.on('close', gone);
    // Counted once the I/O that arrived with this connection is handled: the mock ends an attempt's socket before it
    // opens the next, but both can reach us in one turn of the event loop, the new connection's callback first.
    setImmediate(() => {
      const now = performance.now();
      let held = 0;
      for (const at of sockets.values()) if (now - at < heldForMs) held++;
      peak = Math.max(peak, held);
    });
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

  async function fanOut(running: RunningMockServer, url: string, customers: number, key = newKey()): Promise<string> {
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
    const hanging = await countingReceiver('hang', 300);
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

  it("lets another organization's deliveries to the same receiver, and its clock advance, through while one's hang", async () => {
    const hanging = await countingReceiver('hang');
    started.push(hanging);
    // Attempts end at a 1 s timeout; an advance waits for attempts at most 5 s (the option; 30 s by default).
    const running = await server({ webhookTimeoutMs: 1_000, clockAdvanceMaxWaitMs: 5_000 });
    // Organization A: 300 deliveries to a receiver that never answers, made 8 at a time: about 38 s to get through.
    const keyA = await fanOut(running, `${hanging.url}/a`, 150);
    // Organization B: its own webhook to the same receiver, and 2 deliveries.
    const keyB = await fanOut(running, `${hanging.url}/b`, 1);
    const advance = async (key: string) => {
      const started = performance.now();
      const answer = await fetch(`${running.url}/simulate/clock/advance`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ seconds: 1 }),
        // Either advance answers within its 5 s limit and its own work; without its own share, B's attempts would wait
        // behind A's 300 and, before the limit existed, B's advance with them (about 38 s).
        signal: AbortSignal.timeout(waitMs(20_000)),
      });
      return {
        status: answer.status,
        body: (await answer.json()) as { pendingDeliveries?: string[] },
        ms: performance.now() - started,
      };
    };

    // B's attempts started at once, beside A's: its advance waited for their outcome (each at the 1 s timeout) and
    // answered within its limit with nothing left pending (past the limit it would have listed them).
    const b = await advance(keyB);
    expect(b.status).toBe(200);
    expect(b.body.pendingDeliveries).toBeUndefined();
    const webhookB = (await (
      await fetch(`${running.url}/webhooks`, { headers: { Authorization: `Bearer ${keyB}` } })
    ).json()) as {
      data: { id: string }[];
    };
    const deliveriesB = (await (
      await fetch(`${running.url}/webhooks/${webhookB.data[0]?.id}/deliveries`, { headers: { Authorization: `Bearer ${keyB}` } })
    ).json()) as { data: { attempts: { error: string | null }[] }[] };
    expect(deliveriesB.data.map((delivery) => delivery.attempts.map((attempt) => attempt.error))).toEqual([
      ['no response within 1000 ms'],
      ['no response within 1000 ms'],
    ]);

    // A's own advance stops waiting at its limit and answers with what is still pending (at most 100 listed).
    const a = await advance(keyA);
    expect(a.status).toBe(200);
    expect(a.body.pendingDeliveries?.length).toBeGreaterThan(0);
    expect(a.body.pendingDeliveries?.length).toBeLessThanOrEqual(100);
    expect(a.ms).toBeGreaterThanOrEqual(4_900);
    // A holds its share of the receiver, B its own: never more than 8 sockets each.
    expect(hanging.peak()).toBeLessThanOrEqual(16);
  });
});

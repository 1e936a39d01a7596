// Where webhooks may go and what they may cost (docs/webhooks.md#where-deliveries-may-go, #connections): link-local
// and unspecified addresses and URLs with credentials are refused with 400, a name resolving to such an address is
// not connected to; deliveries share a few keep-alive connections per receiver, so one that never answers holds at
// most its cap of sockets while everyone else is served.
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { createWebhookFetch } from '../src/adapters/webhook-fetch.js';
import { createMockServer } from '../src/index.js';
import { AttemptLimiter, LimiterClosedError } from '../src/webhooks/attempt-limiter.js';
import { WebhookUrlPolicy } from '../src/webhooks/url-policy.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call } from './support/state-tour.js';

describe('the webhook URL policy', () => {
  const mock = createMockServer({ frozenClock: FROZEN_AT });
  const key = newKey();
  const create = async (url: string) => {
    const answer = await call(mock, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key });
    return { status: answer.status, body: JSON.parse(answer.body) as any };
  };

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local address (169.254.0.0/16)'],
    ['http://2852039166/latest', 'link-local address (169.254.0.0/16)'],
    ['http://[fe80::1]:8080/hooks', 'link-local address (fe80::/10)'],
    ['http://[::ffff:169.254.169.254]/', 'link-local address (169.254.0.0/16)'],
    ['http://0.0.0.0:3000/hooks', 'unspecified address (0.0.0.0/8)'],
    ['http://[::]:3000/hooks', 'unspecified address (::)'],
    ['https://user:secret@hooks.example.com/cardrail', 'must not contain credentials'],
  ])('refuses %s with 400 naming the reason', async (url, reason) => {
    const answer = await create(url);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_request');
    expect(answer.body.error.details.field).toBe('/body/url');
    expect(answer.body.error.message).toContain(reason);
  });

  it.each([
    'http://127.0.0.1:9/hooks',
    'http://localhost:3000/hooks',
    'http://10.0.0.5/hooks',
    'http://192.168.1.20:8080/hooks',
    'http://[::1]:3000/hooks',
    'HTTPS://Hooks.Example.COM/Cardrail',
    'Http://hooks.example.com/x',
  ])('accepts %s (loopback, private, names, any case of scheme)', async (url) => {
    expect((await create(url)).status).toBe(201);
  });

  it('refuses the same URLs in an update, and opens a host named in allowWebhookHosts', async () => {
    const created = await create('http://127.0.0.1:9/hooks');
    const patched = await call(mock, {
      method: 'PATCH',
      path: `/webhooks/${created.body.id}`,
      body: { url: 'http://169.254.169.254/' },
      key,
    });
    expect(patched.status).toBe(400);
    const opened = createMockServer({ frozenClock: FROZEN_AT, allowWebhookHosts: ['169.254.169.254', 'fe80::1'] });
    for (const url of ['http://169.254.169.254/hooks', 'http://[fe80::1]/hooks']) {
      const answer = await call(opened, { method: 'POST', path: '/webhooks', body: { url, events: ['*'] }, key });
      expect(answer.status, url).toBe(201);
    }
  });

  it('does not connect to a name that resolves to a refused address: the attempt fails naming it', async () => {
    const resolve = ((hostname: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, [{ address: hostname === 'metadata.test' ? '169.254.169.254' : '127.0.0.1', family: 4 }])) as never;
    const pool = createWebhookFetch({ policy: new WebhookUrlPolicy(), resolve });
    const refusing = createMockServer({ frozenClock: FROZEN_AT, fetch: pool.fetch });
    const webhook = await call(refusing, {
      method: 'POST',
      path: '/webhooks',
      body: { url: 'http://metadata.test/x', events: ['*'] },
      key,
    });
    expect(webhook.status).toBe(201);
    await call(refusing, { method: 'POST', path: '/customers', body: { email: 'ada@example.com' }, key });
    await refusing.idle();
    const { id } = JSON.parse(webhook.body) as { id: string };
    const records = JSON.parse((await call(refusing, { method: 'GET', path: `/webhooks/${id}/deliveries`, key })).body) as {
      data: { attempts: { error: string | null; responseStatus: number | null }[] }[];
    };
    expect(records.data[0]?.attempts[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringContaining('metadata.test resolves to 169.254.169.254, which is a link-local address'),
    });
    pool.close();
  });
});

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
    socket.on('close', () => sockets.delete(socket));
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
    for (let i = 0; i < customers; i++) {
      const created = await fetch(`${running.url}/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `c${i}@example.com` }),
      });
      expect(created.status).toBe(201);
    }
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
    for (let waited = 0; hanging.requests() < 50 && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
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

describe('the attempt limiter', () => {
  it('caps attempts per origin and overall, serves waiting origins in turn, and refuses the queue on close', async () => {
    const limiter = new AttemptLimiter(2, 3);
    const order: string[] = [];
    const take = (origin: string, label: string) =>
      limiter.acquire(origin).then(
        (release) => {
          order.push(label);
          return release;
        },
        (error: unknown) => {
          order.push(`${label}:${error instanceof LimiterClosedError ? 'refused' : 'error'}`);
          return () => undefined;
        },
      );
    const a1 = take('a', 'a1');
    const a2 = take('a', 'a2');
    const a3 = take('a', 'a3');
    const b1 = take('b', 'b1');
    const b2 = take('b', 'b2');
    await Promise.resolve();
    await Promise.resolve();
    // a1 and a2 fill origin a; b1 takes the last global slot; a3 and b2 wait.
    expect(order).toEqual(['a1', 'a2', 'b1']);
    expect(limiter.active).toBe(3);
    // A freed slot goes first to an origin held back by the global cap: a receiver that keeps its own slots busy
    // cannot keep the others waiting.
    (await a1)();
    await b2;
    expect(order).toEqual(['a1', 'a2', 'b1', 'b2']);
    (await b1)();
    await a3;
    expect(order.at(-1)).toBe('a3');
    const a4 = take('a', 'a4');
    limiter.close();
    await a4;
    expect(order.at(-1)).toBe('a4:refused');
    (await a2)();
    (await a3)();
    (await b2)();
    expect(limiter.active).toBe(0);
  });
});

// Two instances on one database, each answering any organization: what one answered the other sees, an
// Idempotency-Key replays across them, racing authorizations never overspend, scheduled work runs once, and a
// server-wide clock advance holds for both (docs/standalone-server.md#several-instances-on-one-database).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectMock, type RemoteMock, type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';
import { newKey } from '../support/keys.js';
import { api, fundedCustomer, until } from './support/api.js';
import { freshDatabase } from './support/databases.js';
import { startReceiver } from './support/receiver.js';

const TOKEN = 'control-token-several-instances-0123456789';
const FROZEN = '2026-11-21T12:00:00.000Z';

describe('two instances on one PostgreSQL database', () => {
  const servers: RunningMockServer[] = [];
  let remote: RemoteMock;
  const urls = () => servers.map((server) => server.url);
  beforeAll(async () => {
    const url = await freshDatabase('several');
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startMockServer({ port: 0, state: url, frozenClock: FROZEN, control: { token: TOKEN }, dashboard: false }),
      );
    }
    remote = await connectMock(servers[0]?.url ?? '', { token: TOKEN });
  });
  afterAll(async () => {
    await remote?.close();
    for (const server of servers) await server.close();
  });

  it('replays an Idempotency-Key across instances, also when both get it at the same moment', async () => {
    const key = newKey();
    const [a, b] = urls().map((url) => api(url, key)) as [ReturnType<typeof api>, ReturnType<typeof api>];
    const first = await a('POST', '/customers', { email: 'one@example.com' }, { 'Idempotency-Key': 'once' });
    expect(first.status).toBe(201);
    const again = await b('POST', '/customers', { email: 'one@example.com' }, { 'Idempotency-Key': 'once' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b)('POST', '/customers', { email: 'two@example.com' }, { 'Idempotency-Key': 'racing' }),
      ),
    );
    expect(racing.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(racing.map((answer) => answer.text)).size).toBe(1);
    const listed = await a('GET', '/customers?limit=100');
    expect(listed.body.data.map((customer: { email: string }) => customer.email).sort()).toEqual([
      'one@example.com',
      'two@example.com',
    ]);
  });

  it('never spends past a card limit or the balance with authorizations racing through both instances', async () => {
    const key = newKey();
    const [a, b] = urls().map((url) => api(url, key)) as [ReturnType<typeof api>, ReturnType<typeof api>];
    const customerId = await fundedCustomer(a, 9_000);
    const limited = await b('POST', '/cards', { customerId, policy: { limits: { perDay: 5_000 } } });
    const open = await a('POST', '/cards', { customerId });
    expect([limited.status, open.status]).toEqual([201, 201]);
    const approved = new Map<string, number>();
    const race = async (cardId: string, count: number) => {
      for (let wave = 0; wave < count; wave += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? a : b)('POST', '/simulate/authorize', {
              cardId,
              amount: 100 + ((wave + i) % 5) * 50,
              currency: 'usd',
              merchant: { name: 'Race' },
            }),
          ),
        );
        for (const answer of answers) {
          expect(answer.status, answer.text).toBe(200);
          if (answer.body.status === 'pending') approved.set(answer.body.id, answer.body.amount);
        }
      }
    };
    await race(limited.body.id, 60);
    const onLimited = [...approved.values()].reduce((sum, amount) => sum + amount, 0);
    expect(onLimited).toBeLessThanOrEqual(5_000);
    // Both instances approved up to the limit: what is left is less than the largest amount (300), or a request of
    // any amount arriving then would have been approved (60 requests ask for 12,000 in all).
    expect(onLimited).toBeGreaterThan(5_000 - 300);
    await race(open.body.id, 60);
    const total = [...approved.values()].reduce((sum, amount) => sum + amount, 0);
    expect(total).toBeLessThanOrEqual(9_000);
    expect(total).toBeGreaterThan(9_000 - 300);
    // Every answered approval is stored, read through the other instance, and the balance is funds minus them.
    for (const id of approved.keys()) {
      const stored = await b('GET', `/transactions/${id}`);
      expect(stored.status).toBe(200);
    }
    const balance = await b('GET', `/customers/${customerId}/balances`);
    expect(balance.body).toMatchObject({ available: 9_000 - total, pending: total });
  });

  it('runs scheduled work once: a card expiry both instances have in their copies, and its webhook', async () => {
    const receiver = await startReceiver();
    try {
      const key = newKey();
      const [a, b] = urls().map((url) => api(url, key)) as [ReturnType<typeof api>, ReturnType<typeof api>];
      expect((await a('POST', '/webhooks', { url: receiver.url, events: ['card.expired'] })).status).toBe(201);
      const customerId = await fundedCustomer(a, 1_000);
      const cards = [];
      for (let i = 0; i < 4; i++)
        cards.push((await (i % 2 ? a : b)('POST', '/cards', { customerId, policy: { ttlMinutes: 1 } })).body.id);
      // Both instances hold the organization with its expiries scheduled.
      expect((await a('GET', '/cards?limit=10')).body.data).toHaveLength(4);
      expect((await b('GET', '/cards?limit=10')).body.data).toHaveLength(4);
      const advanced = await Promise.all([
        a('POST', '/simulate/clock/advance', { seconds: 60 }),
        b('POST', '/simulate/clock/advance', { seconds: 60 }),
      ]);
      expect(advanced.map((answer) => answer.status)).toEqual([200, 200]);
      await remote.idle();
      await until(() => receiver.received.length >= 4, 'the four expiries delivered', WAITS.ui);
      const events = (await b('GET', '/events?type=card.expired&limit=100')).body.data as { data: { cardId: string } }[];
      expect(events.map((event) => event.data.cardId).sort()).toEqual([...cards].sort());
      await remote.idle();
      const ids = receiver.received.map((entry) => entry.webhookId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(4);
      expect((await a('GET', '/simulate/clock')).body.offsetSeconds).toBe(120);
    } finally {
      await receiver.close();
    }
  });

  it('holds a server-wide clock advance for every instance, running what it makes due once', async () => {
    // The due work an advance makes run when a copy catches up belongs to the batch that reads it (no stray change).
    const logged = vi.spyOn(console, 'error');
    const key = newKey();
    const [a, b] = urls().map((url) => api(url, key)) as [ReturnType<typeof api>, ReturnType<typeof api>];
    const customerId = await fundedCustomer(b, 1_000);
    const card = await b('POST', '/cards', { customerId, policy: { ttlMinutes: 30 } });
    const before = Date.parse((await a('GET', '/simulate/clock')).body.now);
    expect(Date.parse((await b('GET', '/simulate/clock')).body.now)).toBe(before);
    // Through the control API of the first instance; the second's copy must follow.
    await remote.clock.advance(3_600);
    expect(Date.parse((await b('GET', '/simulate/clock')).body.now)).toBe(before + 3_600_000);
    expect(Date.parse((await a('GET', '/simulate/clock')).body.now)).toBe(before + 3_600_000);
    expect((await b('GET', `/cards/${card.body.id}`)).body.status).toBe('closed');
    const later = await b('POST', '/customers', { email: 'later@example.com' });
    expect(Date.parse(later.body.createdAt)).toBe(before + 3_600_000);
    const expired = (await a('GET', '/events?type=card.expired&limit=10')).body.data;
    expect(expired).toHaveLength(1);
    const strays = logged.mock.calls.map((call) => call.join(' ')).filter((line) => line.includes('outside its organization'));
    logged.mockRestore();
    expect(strays).toEqual([]);
  });
});

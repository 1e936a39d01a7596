import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../../src/index.js';
import { Scenario, SCENARIO_START } from './support/http-scenario.js';

const START_MS = Date.parse(SCENARIO_START);
const MINUTE_MS = 60_000;

describe('a policy change of the agent or the customer moves the TTL of their cards', () => {
  it('arms a TTL the agent policy gives its cards, and the customer policy can shorten it (PATCH /users too)', async () => {
    const s = new Scenario();
    const { customer, agent, card } = await s.setup({ balance: 0 });
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBeNull();

    await s.ok('PATCH', `/agents/${agent.id}`, { policy: { ttlMinutes: 30 } });
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBe(new Date(START_MS + 30 * MINUTE_MS).toISOString());

    await s.ok('PATCH', `/users/${customer.id}`, { policy: { ttlMinutes: 20 } }, 'user');
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBe(new Date(START_MS + 20 * MINUTE_MS).toISOString());
    await s.settle();

    await s.advance(20 * 60 - 1);
    await s.expectEvents([]);
    await s.advance(1);
    const events = await s.expectEvents(['card.expired', 'card.closed']);
    expect(events[0]?.data).toMatchObject({ cardId: card.id, ttlMinutes: 20, reason: 'ttl_expired' });
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('closed');
  });

  it('disarms the TTL when the policy that gave it is removed', async () => {
    const s = new Scenario();
    const { customer, card } = await s.setup({ balance: 0, customer: { policy: { ttlMinutes: 30 } } });
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBe(new Date(START_MS + 30 * MINUTE_MS).toISOString());
    await s.ok('PATCH', `/customers/${customer.id}`, { policy: {} });
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBeNull();
    await s.settle();
    await s.advance(24 * 3600);
    await s.expectEvents([]);
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('active');
  });
});

describe('the expiry instant a card shows', () => {
  it('stays the instant it expired at when its policy changes afterwards (the TTL came from the agent)', async () => {
    const s = new Scenario();
    const { card } = await s.setup({
      balance: 0,
      agent: { policy: { ttlMinutes: 60 } },
      card: { policy: { ttlAction: 'freeze' } },
    });
    const expiresAt = new Date(START_MS + 60 * MINUTE_MS).toISOString();
    expect((await s.ok('GET', `/cards/${card.id}`)).expiresAt).toBe(expiresAt);
    await s.advance(60 * 60);
    expect(await s.ok('GET', `/cards/${card.id}`)).toMatchObject({ status: 'frozen', expiresAt });
    await s.ok('PATCH', `/cards/${card.id}`, { policy: { ttlAction: 'freeze', limits: { perDay: 1000 } } });
    expect(await s.ok('GET', `/cards/${card.id}`)).toMatchObject({ status: 'frozen', expiresAt });
  });
});

describe('due work on a running clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a card closed by its TTL on a plain GET once wall time passed it, with no advance and no timer', async () => {
    // Only Date is faked: the scheduler's real timer (due in 5 minutes) cannot fire during the test, so the GET
    // itself must run the due expiry before reading.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START_MS);
    const mock = createMockServer();
    const key = 'sk_test_runningclock01';
    const call = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await mock.handle(
        new Request(`http://127.0.0.1:4010/v1${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return (await response.json()) as Record<string, unknown>;
    };
    const customer = await call('POST', '/customers', { email: 'ada@example.com' });
    const card = await call('POST', '/cards', { customerId: customer.id, policy: { ttlMinutes: 5 } });
    expect((await call('GET', `/cards/${card.id as string}`)).status).toBe('active');

    vi.setSystemTime(START_MS + 5 * MINUTE_MS - 1);
    expect((await call('GET', `/cards/${card.id as string}`)).status).toBe('active');
    vi.setSystemTime(START_MS + 5 * MINUTE_MS);
    expect((await call('GET', `/cards/${card.id as string}`)).status).toBe('closed');
    expect(
      mock.events
        .list({ apiKey: key })
        .map((event) => event.type)
        .slice(-2),
    ).toEqual(['card.expired', 'card.closed']);
    mock.reset();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cards, freezeCard } from '../src/domain/cards.js';
import { createMockServer, type MockExtension } from '../src/index.js';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { FROZEN_AT, FROZEN_MS, newKey } from './support/keys.js';

/** An extension in the engine's place: ten minutes after a card is created, it freezes it (like a TTL would). */
const freezeAfterTenMinutes: MockExtension = {
  name: 'test-ttl',
  onEvent(event, tenant) {
    if (event.type !== 'card.created') return;
    const cardId = event.data.cardId as string;
    tenant.scheduler.schedule(event.createdAt + 10 * 60_000, () => {
      const card = cards.of(tenant).get(cardId);
      if (card?.status === 'active') freezeCard(tenant, card, 'manual', 'system');
    });
  },
};

describe.each(TRANSPORTS)('test clock through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { extensions: [freezeAfterTenMinutes] });
  });
  afterAll(() => h.close());

  it('tells the time and advances per organization', async () => {
    const key = newKey();
    const other = newKey();
    expect((await h.call('GET', '/simulate/clock', { key })).body).toEqual({ now: FROZEN_AT, frozen: true, offsetSeconds: 0 });
    const advanced = await h.call('POST', '/simulate/clock/advance', { key, variant: 'user', body: { seconds: 300 } });
    expect(advanced.body).toEqual({ now: new Date(FROZEN_MS + 300_000).toISOString(), frozen: true, offsetSeconds: 300 });
    expect((await h.call('GET', '/simulate/clock', { key: other })).body.now).toBe(FROZEN_AT);
    // Timestamps of new objects come from the organization's clock.
    const customer = await h.call('POST', '/customers', { key, body: { email: 'ada@example.com' } });
    expect(customer.body.createdAt).toBe(new Date(FROZEN_MS + 300_000).toISOString());
    const invalid = await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 0 } });
    expect(invalid.body.error.details.field).toBe('/body/seconds');
  });

  it('applies due state changes and their events before the advance answers', async () => {
    const key = newKey();
    const customer = (await h.call('POST', '/customers', { key, body: { email: 'ada@example.com' } })).body;
    const card = (await h.call('POST', '/cards', { key, body: { customerId: customer.id } })).body;
    await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 599 } });
    expect((await h.call('GET', `/cards/${card.id}`, { key })).body.status).toBe('active');
    await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 3600 } });
    expect((await h.call('GET', `/cards/${card.id}`, { key })).body.status).toBe('frozen');
    const frozen = h.mock.events.list({ apiKey: key, type: 'card.frozen' });
    expect(frozen).toHaveLength(1);
    // The job ran at its own due time, not at the end of the advance (a Bearer organization's events are in the
    // general envelope: ISO 8601; the catalog envelope carries the same instant in epoch ms).
    expect(frozen[0]?.createdAt).toBe(new Date(FROZEN_MS + 10 * 60_000).toISOString());
    const catalog = h.mock.events.list({ apiKey: key, type: 'card.frozen', variant: 'user' });
    expect(catalog[0]?.createdAt).toBe(FROZEN_MS + 10 * 60_000);
  });
});

describe('server-wide clock control', () => {
  it('advances every organization, including ones created later', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const key = newKey();
    const ask = (k: string) =>
      mock.handle(new Request('http://mock/v1/simulate/clock', { headers: { Authorization: `Bearer ${k}` } }));
    await ask(key);
    await mock.clock.advance(60);
    expect(mock.clock.now().toISOString()).toBe(new Date(FROZEN_MS + 60_000).toISOString());
    expect(mock.clock.frozen).toBe(true);
    expect(((await (await ask(key)).json()) as { now: string }).now).toBe(new Date(FROZEN_MS + 60_000).toISOString());
    expect(((await (await ask(newKey())).json()) as { now: string }).now).toBe(new Date(FROZEN_MS + 60_000).toISOString());
    mock.reset();
    expect(mock.events.list()).toEqual([]);
  });
});

describe('a running (not frozen) clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs due work when real time reaches it, without any request', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(FROZEN_MS);
    const attempts: number[] = [];
    const mock = createMockServer({
      fetch: async () => {
        attempts.push(Date.now());
        return new Response('no', { status: 503 });
      },
    });
    const key = newKey();
    const call = (path: string, body: unknown) =>
      mock.handle(
        new Request(`http://mock/v1${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    await call('/webhooks', { url: 'https://receiver.example.com/h', events: ['user.created'] });
    await call('/customers', { email: 'ada@example.com' });
    await mock.idle();
    expect(attempts).toEqual([FROZEN_MS]);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await mock.idle();
    expect(attempts).toEqual([FROZEN_MS, FROZEN_MS + 5 * 60_000]);
    mock.reset();
  });
});

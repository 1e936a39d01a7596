import { Cardrail, ConnectionError, InternalServerError, RateLimitError, TimeoutError } from '@cardrail/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unhandled } from '../../scripts/vitest-msw.mjs';
import { createHandlers } from '../src/adapters/msw.js';
import { startMockServer } from '../src/adapters/node.js';
import { createMockServer, FaultOptionError } from '../src/index.js';

/** A client that retries as the SDK does by default, without waiting long between attempts. */
const retrying = { maxRetries: 2 } as const;

describe('faults on demand, in-process', () => {
  const lines: string[] = [];
  const mock = createMockServer({ log: (line) => lines.push(line) });
  afterEach(() => mock.faults.clear());

  it('a 503 on createCard once: the SDK succeeds on its retry and exactly one card exists', async () => {
    const cardrail = mock.client(retrying);
    const { owner, agent, card: first } = await mock.cardholder({ client: cardrail });
    const fault = mock.faults.inject({ operation: 'createCard', status: 503, retryAfter: 0, times: 1 });
    const { data: card, response } = await cardrail.cards.create({ customerId: owner.id, agentId: agent.id }).withResponse();
    expect(card.agentId).toBe(agent.id);
    expect(response.headers.get('cardrail-mock-fault')).toBeNull();
    const cards = (await cardrail.cards.list({ agentId: agent.id })).data.map((c) => c.id);
    expect(cards.sort()).toEqual([first.id, card.id].sort());
    // Used up after one request: gone from the list, its one hit in the log.
    expect(fault.info()).toBeUndefined();
    expect(mock.faults.list()).toEqual([]);
    expect(lines.filter((line) => line.includes(`fault=${fault.id}`))).toEqual([expect.stringMatching(/^POST \/v1\/cards 503 /)]);
  });

  it('answers each status in the error format, with the headers the spec documents', async () => {
    const cardrail = mock.client();
    const apiKey = 'sk_test_faultstatus01';
    for (const status of [429, 500, 502, 503] as const) {
      const fault = mock.faults.inject({ apiKey, status, retryAfter: 3, times: 1 });
      const response = await mock.handle(
        new Request('http://127.0.0.1/v1/customers', { headers: { Authorization: `Bearer ${apiKey}` } }),
      );
      expect(response.status).toBe(status);
      const body = (await response.json()) as { error: { code: string; details: { fault: string } } };
      expect(body.error).toMatchObject({
        code: { 429: 'rate_limited', 500: 'internal_error', 502: 'bad_gateway', 503: 'service_unavailable' }[status],
        message: expect.stringContaining('fault injected'),
        details: { fault: fault.id },
      });
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      expect(response.headers.get('cardrail-mock-fault')).toBe(`${fault.id}; status=${status}`);
      expect(response.headers.get('retry-after')).toBe(status === 429 || status === 503 ? '3' : null);
      if (status === 429) expect(response.headers.get('ratelimit-remaining')).toBe('0');
    }
    // Another organization was never faulted.
    await expect(cardrail.customers.list()).resolves.toMatchObject({ data: [] });
  });

  it('a faulted request changes nothing, not even a new key’s organization', async () => {
    const before = JSON.stringify(mock.snapshot());
    mock.faults.inject({ status: 500 });
    const fresh = new Cardrail({
      apiKey: 'sk_test_neverseen0001',
      baseUrl: 'http://127.0.0.1/v1',
      maxRetries: 0,
      fetch: mock.handle,
    });
    await expect(fresh.customers.create({ email: 'x@example.com' })).rejects.toBeInstanceOf(InternalServerError);
    expect(JSON.stringify(mock.snapshot())).toBe(before);
  });

  it('a fault after the commit: the retry with the same Idempotency-Key replays the committed answer', async () => {
    const cardrail = mock.client(retrying);
    const { owner, agent, card: first } = await mock.cardholder({ client: cardrail });
    mock.faults.inject({ operation: 'createCard', status: 502, afterCommit: true, times: 1 });
    const { data: card, response } = await cardrail.cards
      .create({ customerId: owner.id, agentId: agent.id }, { idempotencyKey: 'card-once' })
      .withResponse();
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const cards = (await cardrail.cards.list({ agentId: agent.id })).data.map((c) => c.id);
    expect(cards.sort()).toEqual([first.id, card.id].sort());
  });

  it('without an Idempotency-Key, a fault after the commit is how duplicates happen', async () => {
    const apiKey = 'sk_test_duplicates01';
    const post = () =>
      mock.handle(
        new Request('http://127.0.0.1/v1/customers', {
          method: 'POST',
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'twice@example.com' }),
        }),
      );
    mock.faults.inject({ apiKey, operation: 'createCustomer', status: 500, afterCommit: true, times: 1 });
    const failed = await post();
    expect(failed.status).toBe(500);
    expect(failed.headers.get('cardrail-mock-fault')).toMatch(/; status=500; after-commit$/);
    expect((await post()).status).toBe(201);
    expect((await mock.client({ apiKey }).customers.list()).data).toHaveLength(2);
  });

  it('a dropped connection rejects like a network error; the SDK retries it', async () => {
    const cardrail = mock.client();
    mock.faults.inject({ operation: 'listCustomers', drop: true, times: 1 });
    await expect(cardrail.customers.list()).rejects.toBeInstanceOf(ConnectionError);
    mock.faults.inject({ operation: 'listCustomers', drop: true, times: 1 });
    await expect(mock.client({ apiKey: 'sk_test_dropretry01', ...retrying }).customers.list()).resolves.toMatchObject({
      data: [],
    });
  });

  it('a request that is never answered ends with the client’s timeout', async () => {
    const cardrail = mock.client({ timeoutMs: 100 });
    const fault = mock.faults.inject({ operation: 'getClock', hang: true });
    await expect(cardrail.simulate.clock.retrieve()).rejects.toBeInstanceOf(TimeoutError);
    expect(fault.info()?.hits).toBe(1);
    // Clearing the fault releases what it holds; later requests are answered.
    fault.clear();
    await expect(cardrail.simulate.clock.retrieve()).resolves.toHaveProperty('now');
  });

  it('adds latency, and the slow answer is marked', async () => {
    const cardrail = mock.client();
    mock.faults.inject({ operation: 'listAgents', delayMs: 150, times: 1 });
    const started = performance.now();
    const { response } = await cardrail.agents.list().withResponse();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.headers.get('cardrail-mock-fault')).toMatch(/; delay-ms=150$/);
  });

  it('is scoped to the key’s organization and mode', async () => {
    const mine = mock.client();
    const { key: liveKey } = await mine.apiKeys.create({ name: 'live', mode: 'live' });
    const { key: otherTestKey } = await mine.apiKeys.create({ name: 'second' });
    const other = mock.client();
    const apiKey = 'sk_test_scopedfault1';
    // The key scopes its organization: another key of the same organization and mode is faulted too.
    const scoped = mock.client({ apiKey });
    await scoped.customers.list();
    mock.faults.inject({ apiKey: otherTestKey, status: 429, retryAfter: 0 });
    await expect(mine.customers.list()).rejects.toBeInstanceOf(RateLimitError);
    await expect(mock.client({ apiKey: liveKey }).customers.list()).resolves.toMatchObject({ data: [] });
    await expect(other.customers.list()).resolves.toMatchObject({ data: [] });
    await expect(scoped.customers.list()).resolves.toMatchObject({ data: [] });
  });

  it('matches a path or a path template', async () => {
    const cardrail = mock.client();
    const { card } = await mock.cardholder({ client: cardrail });
    mock.faults.inject({ path: '/cards/{cardId}/freeze', status: 500, times: 1 });
    mock.faults.inject({ path: `/v1/cards/${card.id}`, status: 502, times: 1 });
    await expect(cardrail.cards.freeze(card.id, {})).rejects.toMatchObject({ status: 500 });
    await expect(cardrail.cards.retrieve(card.id)).rejects.toMatchObject({ status: 502 });
    await expect(cardrail.cards.retrieve(card.id)).resolves.toMatchObject({ id: card.id });
  });

  it('faults a seeded share of the requests, the same ones on every run', async () => {
    const run = async () => {
      const fresh = createMockServer();
      fresh.faults.inject({ operation: 'listCustomers', status: 503, rate: 0.3, seed: 'run' });
      const client = fresh.client();
      const outcomes: number[] = [];
      for (let i = 0; i < 40; i++)
        outcomes.push(
          await client.customers.list().then(
            () => 200,
            (error: unknown) => (error as { status: number }).status,
          ),
        );
      return outcomes;
    };
    const first = await run();
    expect(first).toEqual(await run());
    const faulted = first.filter((status) => status === 503).length;
    expect(faulted).toBeGreaterThan(4);
    expect(faulted).toBeLessThan(24);
  });

  it('refuses bad options, naming them; an unknown operation names the closest ids', () => {
    expect(() => mock.faults.inject({ operation: 'createCards', status: 503 })).toThrow(
      /operation: no operation createCards; the closest are createCard, /,
    );
    expect(() => mock.faults.inject({ status: 404 as never })).toThrow(FaultOptionError);
    expect(() => mock.faults.inject({ operation: 'createCard' })).toThrow(/needs status, delayMs, drop or hang/);
    expect(() => mock.faults.inject({ drop: true, status: 503 })).toThrow(/exclude each other/);
    expect(() => mock.faults.inject({ afterCommit: true, delayMs: 5 })).toThrow(/afterCommit: needs status or drop/);
    expect(() => mock.faults.inject({ rate: 2, status: 503 })).toThrow(/rate: must be a number from 0 to 1/);
    expect(() => mock.faults.inject({ bogus: 1, status: 503 } as never)).toThrow(/bogus: unknown option/);
    expect(mock.faults.list()).toEqual([]);
  });

  it('reset clears the faults', () => {
    mock.faults.inject({ status: 503 });
    mock.reset();
    expect(mock.faults.list()).toEqual([]);
  });
});

describe('faults through MSW', () => {
  const mock = createHandlers({ baseUrls: ['http://127.0.0.1:4010/v1'] });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen(unhandled('error')));
  afterAll(() => server.close());

  it('a dropped connection is a network error of the global fetch', async () => {
    const cardrail = new Cardrail({ apiKey: 'sk_test_mswdropped01', baseUrl: 'http://127.0.0.1:4010/v1', maxRetries: 0 });
    mock.faults.inject({ operation: 'listCustomers', drop: true, times: 1 });
    await expect(cardrail.customers.list()).rejects.toBeInstanceOf(ConnectionError);
    await expect(cardrail.customers.list()).resolves.toMatchObject({ data: [] });
  });
});

describe('faults on the Node server', () => {
  it('drops the connection, holds a request until the client gives up, and answers the rest', async () => {
    const running = await startMockServer({ port: 0, dashboard: false });
    try {
      const cardrail = new Cardrail({ apiKey: 'sk_test_nodefaults01', baseUrl: running.url, maxRetries: 0, timeoutMs: 300 });
      running.mock.faults.inject({ operation: 'listCustomers', drop: true, times: 1 });
      await expect(cardrail.customers.list()).rejects.toBeInstanceOf(ConnectionError);
      running.mock.faults.inject({ operation: 'listCustomers', hang: true, times: 1 });
      await expect(cardrail.customers.list()).rejects.toBeInstanceOf(TimeoutError);
      running.mock.faults.inject({ operation: 'createCustomer', status: 503, retryAfter: 0, times: 1 });
      const retried = new Cardrail({ apiKey: 'sk_test_nodefaults01', baseUrl: running.url, maxRetries: 1 });
      await retried.customers.create({ email: 'node@example.com' });
      expect((await cardrail.customers.list()).data).toHaveLength(1);
    } finally {
      await running.close();
    }
  });
});

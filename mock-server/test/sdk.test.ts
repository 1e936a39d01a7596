import {
  AuthenticationError,
  BadRequestError,
  Cardrail,
  CardrailUsers,
  NotFoundError,
  RateLimitError,
  verifySignature,
} from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { FROZEN_MS, newKey } from './support/keys.js';

describe.each(TRANSPORTS)('through the SDK over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport);
  });
  afterAll(() => h.close());

  const client = (apiKey = newKey()) => new Cardrail({ apiKey, baseUrl: h.baseUrl, maxRetries: 0 });

  it('drives customers, agents and cards through their state machines', async () => {
    const cardrail = client();
    const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com', name: { first: 'Ada' } });
    const agent = await cardrail.agents.create({ customerId: customer.id, name: 'Buyer' });
    const card = await cardrail.cards.create({ customerId: customer.id, agentId: agent.id, type: 'virtual', usage: 'multi' });
    expect(card.status).toBe('active');
    expect((await cardrail.cards.freeze(card.id)).status).toBe('frozen');
    expect((await cardrail.cards.update(card.id, { status: 'active' })).status).toBe('active');
    expect((await cardrail.agents.suspend(agent.id)).status).toBe('suspended');
    expect((await cardrail.cards.retrieve(card.id)).status).toBe('frozen');
    expect((await cardrail.agents.activate(agent.id)).status).toBe('active');
    expect((await cardrail.cards.close(card.id)).status).toBe('closed');
    expect(await cardrail.customers.balances(customer.id)).toMatchObject({ available: 0, pending: 0, posted: 0 });
    const types = (await cardrail.events.list({ limit: 100 })).data.map((event) => event.type);
    expect(types).toEqual([
      'card.closed',
      'agent.activated',
      'card.frozen',
      'agent.suspended',
      'card.frozen',
      'card.created',
      'agent.created',
      'verification.initiated',
      'user.created',
    ]);
  });

  it('walks a paginated list with the SDK while objects are created', async () => {
    const cardrail = client();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await cardrail.customers.create({ type: 'consumer', email: `u${i}@example.com` })).id);
    const seen: string[] = [];
    let page = await cardrail.customers.list({ limit: 2 });
    for (;;) {
      seen.push(...page.data.map((c) => c.id));
      await cardrail.customers.create({ type: 'consumer', email: 'late@example.com' });
      if (!page.hasNextPage()) break;
      page = await page.getNextPage();
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it("surfaces the mock's errors as the SDK's error classes", async () => {
    const key = newKey();
    const cardrail = client(key);
    await expect(cardrail.cards.retrieve('card_missing')).rejects.toBeInstanceOf(NotFoundError);
    const invalid = await cardrail.customers.create({ type: 'consumer', email: 'not-an-email' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_request', requestId: expect.stringMatching(/^req_/) });

    const extra = await cardrail.apiKeys.create({ name: 'temp' });
    await cardrail.apiKeys.revoke(extra.id);
    await expect(client(extra.key).customers.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("shows the mock's hint in the error's message: a short key, Api-Key on a customer path, a base URL without /v1", async () => {
    // The SDK refuses a pk_ key itself, before sending; a key of the right prefix and the wrong length reaches the mock.
    expect(() => new Cardrail({ apiKey: 'pk_test_x', baseUrl: h.baseUrl })).toThrow(/starts with "sk_test_"/);
    const short = new Cardrail({ apiKey: 'sk_test_x', baseUrl: h.baseUrl, maxRetries: 0 });
    const refused = await short.customers.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as Error).message).toBe(
      '401 unauthorized: The key is too short: a key is sk_test_ or sk_live_ followed by 8 to 248 letters, digits or underscores.',
    );
    // A proxy that forwards the key as Api-Key, the user variant's header, on a customer-variant path.
    const asApiKey = new Cardrail({
      apiKey: newKey(),
      baseUrl: h.baseUrl,
      maxRetries: 0,
      fetch: (request) => {
        const headers = new Headers(request.headers);
        headers.set('Api-Key', (headers.get('Authorization') ?? '').replace(/^Bearer /, ''));
        headers.delete('Authorization');
        return fetch(new Request(request, { headers }));
      },
    });
    const missing = await asApiKey.customers.list().catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toMatch(
      /^404 not found: \/v1\/customers belongs to the customer variant: send the key as "Authorization: Bearer <key>"/,
    );
    if (transport === 'node') {
      const withoutV1 = new Cardrail({ apiKey: newKey(), baseUrl: h.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 });
      const unrouted = await withoutV1.customers.list().catch((error: unknown) => error);
      expect(unrouted).toBeInstanceOf(NotFoundError);
      expect((unrouted as Error).message).toMatch(/^404 not found: The API's paths start with \/v1: request \/v1\/customers/);
    }
  });

  it('replays an idempotent create and refuses the key with another body', async () => {
    const cardrail = client();
    const first = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' }, { idempotencyKey: 'once' });
    const again = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' }, { idempotencyKey: 'once' });
    expect(again.id).toBe(first.id);
    await expect(
      cardrail.customers.create({ type: 'consumer', email: 'bob@example.com' }, { idempotencyKey: 'once' }),
    ).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('delivers webhooks whose signature the SDK verifies, and advances the test clock', async () => {
    const key = newKey();
    const cardrail = client(key);
    const receiver = await h.receiver();
    const webhook = await cardrail.webhooks.create({ url: receiver.url, events: ['user.created'] });
    await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    await h.mock.idle();
    const [delivery] = receiver.received;
    const clock = await cardrail.simulate.clock.retrieve();
    await verifySignature({
      payload: delivery?.body ?? '',
      header: delivery?.headers['cardrail-signature'],
      secret: webhook.secret,
      now: new Date(clock.now),
    });
    const advanced = await cardrail.simulate.clock.advance({ seconds: 3600 });
    expect(Date.parse(advanced.now)).toBe(FROZEN_MS + 3_600_000);
    const deliveries = await cardrail.webhooks.deliveries.list(webhook.id);
    expect(deliveries.data[0]?.status).toBe('succeeded');
  });

  it('never waits for the receiver, retries at 0, 5 min, 30 min, 2 h and 24 h, and loses no event while it is down', async () => {
    const key = newKey();
    const cardrail = client(key);
    const receiver = await h.receiver();
    const webhook = await cardrail.webhooks.create({ url: receiver.url, events: ['user.created'] });
    receiver.answer('hang');
    await cardrail.customers.create({ type: 'consumer', email: 'first@example.com' });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
    // The create has answered while the receiver still holds its delivery.
    expect((await cardrail.webhooks.deliveries.list(webhook.id)).data.map((d) => [d.status, d.attempts.length])).toEqual([
      ['pending', 0],
    ]);
    receiver.answer({ status: 503 });
    receiver.release();
    await h.mock.idle();

    for (const email of ['second@example.com', 'third@example.com']) await cardrail.customers.create({ type: 'consumer', email });
    await h.mock.idle();
    await cardrail.simulate.clock.advance({ seconds: 2 * 24 * 3600 });
    const deliveries = (await cardrail.webhooks.deliveries.list(webhook.id)).data;
    expect(deliveries.map((d) => d.status)).toEqual(['failed', 'failed', 'succeeded']);
    const minutesAfterStart = (d: (typeof deliveries)[number]) =>
      d.attempts.map((a) => (Date.parse(a.attemptedAt) - FROZEN_MS) / 60_000);
    expect(deliveries.map(minutesAfterStart)).toEqual([[0, 5, 35, 155, 1595], [0, 5, 35, 155, 1595], [0]]);

    // Back up: a manual retry delivers each failed event, so every event reached the receiver once with a 2xx.
    receiver.answer({ status: 200 });
    for (const failed of deliveries.slice(0, 2)) {
      expect((await cardrail.webhooks.deliveries.retry(webhook.id, failed.id)).status).toBe('succeeded');
    }
    const events = (await cardrail.events.list({ type: 'user.created' })).data.map((e) => e.id);
    expect(events).toHaveLength(3);
    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events));
    const accepted = [receiver.received[0], ...receiver.received.slice(-2)].map((r) => JSON.parse(r?.body ?? '{}').id as string);
    expect(new Set(accepted)).toEqual(new Set(events));
  });

  it('withholds credentials behind requireApproval until the intent is approved (BadRequestError codes)', async () => {
    const cardrail = client();
    const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    const agent = await cardrail.agents.create({ customerId: customer.id, name: 'Buyer', policy: { requireApproval: true } });
    const card = await cardrail.cards.create({ customerId: customer.id, agentId: agent.id });
    await expect(cardrail.cards.credentials(card.id)).rejects.toMatchObject({ status: 400, code: 'intent_required' });
    const intent = await cardrail.intents.create({ cardId: card.id, summary: 'Laptop', expectedAmount: 90_000 });
    const waiting = await cardrail.cards.credentials(card.id, { intentId: intent.id }).catch((error: unknown) => error);
    expect(waiting).toBeInstanceOf(BadRequestError);
    expect(waiting).toMatchObject({ status: 400, code: 'approval_required' });
    await cardrail.intents.approve(intent.id);
    const credentials = await cardrail.cards.credentials(card.id, { intentId: intent.id });
    expect(credentials).toMatchObject({ cardId: card.id, pan: expect.stringMatching(/^\d{16}$/) });
  });

  it('speaks the user variant through CardrailUsers', async () => {
    const key = newKey();
    const users = new CardrailUsers({ apiKey: key, baseUrl: h.baseUrl, maxRetries: 0 });
    const user = await users.users.create({ type: 'consumer', email: 'ada@example.com' });
    const agent = await users.agents.create({ userId: user.id, name: 'Buyer' });
    const card = await users.cards.create({ agentId: agent.id, type: 'single', purpose: 'GPU credits' });
    expect(card).toMatchObject({ userId: user.id, type: 'single', createdAt: FROZEN_MS, status: 'active' });
    const [event] = (await users.events.list({ type: 'card.created' })).data;
    expect(event).toMatchObject({ type: 'card.created', createdAt: FROZEN_MS, organizationId: expect.stringMatching(/^org_/) });
    // The customer-variant client of the same organization sees the same card in its own shape.
    expect((await client(key).cards.retrieve(card.id)).usage).toBe('single');
  });
});

describe.each(TRANSPORTS)('more rules through the SDK over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { rateLimit: 12 });
  });
  afterAll(() => h.close());

  const client = (apiKey = newKey()) => new Cardrail({ apiKey, baseUrl: h.baseUrl, maxRetries: 0 });

  it('raises RateLimitError with the 429 once the key used its minute', async () => {
    const cardrail = client();
    for (let i = 0; i < 12; i++) await cardrail.customers.list();
    const limited = await cardrail.customers.list().catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('refuses test helpers to the live key of a test organization and hides the test objects from it', async () => {
    const testKey = newKey();
    const test = client(testKey);
    const created = await test.apiKeys.create({ name: 'production', mode: 'live' });
    expect(created).toMatchObject({ mode: 'live', key: expect.stringMatching(/^sk_live_/) });
    const live = client(created.key);
    // One organization: the user-variant events of both modes name the same one.
    const organizationOf = async (apiKey: string) => {
      const users = new CardrailUsers({ apiKey, baseUrl: h.baseUrl, maxRetries: 0 });
      await users.users.create({ type: 'consumer', email: 'org@example.com' });
      return (await users.events.list({ type: 'user.created' })).data.map((event) => event.organizationId);
    };
    const [organizationId] = await organizationOf(testKey);
    expect(await organizationOf(created.key)).toEqual([organizationId]);

    const customer = await test.customers.create({ type: 'consumer', email: 'ada@example.com' }, { idempotencyKey: 'signup-1' });
    await expect(live.customers.retrieve(customer.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await live.customers.list()).data.map((c) => c.id)).not.toContain(customer.id);
    await expect(live.simulate.clock.retrieve()).rejects.toMatchObject({ status: 400, code: 'test_mode_only' });
    await expect(live.simulate.deposit({ customerId: customer.id, amount: 100 })).rejects.toMatchObject({
      status: 400,
      code: 'test_mode_only',
    });
    // The idempotency key of the test mode is unknown to the live mode.
    const liveCustomer = await live.customers.create(
      { type: 'consumer', email: 'bob@example.com' },
      { idempotencyKey: 'signup-1' },
    );
    expect(liveCustomer).toMatchObject({ email: 'bob@example.com' });
    expect(liveCustomer.id).not.toBe(customer.id);
    // Keys: each mode lists its own and cannot revoke the other's.
    expect((await live.apiKeys.list()).data.map((k) => k.id)).toEqual([created.id]);
    const testKeys = (await test.apiKeys.list()).data;
    expect(testKeys.map((k) => k.mode)).toEqual(['test']);
    await expect(test.apiKeys.revoke(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(live.apiKeys.revoke(testKeys[0]?.id ?? '')).rejects.toBeInstanceOf(NotFoundError);
    expect((await live.customers.retrieve(liveCustomer.id)).id).toBe(liveCustomer.id);
  });

  it('manages webhooks: update, rotate, list deliveries, retry a failed one, delete', async () => {
    const key = newKey();
    const cardrail = client(key);
    const receiver = await h.receiver();
    receiver.answer({ status: 500 });
    const webhook = await cardrail.webhooks.create({ url: receiver.url, events: ['user.created'] });
    const rotated = await cardrail.webhooks.rotateSecret(webhook.id);
    expect(rotated.secret).not.toBe(webhook.secret);
    await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    await cardrail.simulate.clock.advance({ seconds: 2 * 24 * 3600 });
    const [failed] = (await cardrail.webhooks.deliveries.list(webhook.id)).data;
    expect(failed?.status).toBe('failed');
    expect(failed?.attempts).toHaveLength(5);
    receiver.answer({ status: 200 });
    const retried = await cardrail.webhooks.deliveries.retry(webhook.id, failed?.id ?? '');
    expect(retried.status).toBe('succeeded');
    const last = receiver.received.at(-1);
    // Two days after the rotation only the new secret signs.
    await verifySignature({
      payload: last?.body ?? '',
      header: last?.headers['cardrail-signature'],
      secret: rotated.secret,
      now: h.mock.clock.now(key),
    });
    expect((await cardrail.webhooks.update(webhook.id, { description: 'ops' })).description).toBe('ops');
    await cardrail.webhooks.delete(webhook.id);
    await expect(cardrail.webhooks.retrieve(webhook.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('deletes users and agents through the user-variant client', async () => {
    const users = new CardrailUsers({ apiKey: newKey(), baseUrl: h.baseUrl, maxRetries: 0 });
    const user = await users.users.create({ type: 'consumer', email: 'ada@example.com' });
    const agent = await users.agents.create({ userId: user.id, name: 'Buyer' });
    const card = await users.cards.create({ agentId: agent.id, type: 'multi' });
    expect(await users.agents.delete(agent.id)).toEqual({ id: agent.id, deleted: true });
    expect((await users.cards.retrieve(card.id)).status).toBe('closed');
    expect((await users.users.delete(user.id)).status).toBe('deleted');
    await expect(users.agents.retrieve(agent.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

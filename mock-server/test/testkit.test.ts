import { Cardrail, CardrailUsers, NotFoundError } from '@cardrail/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, test } from 'vitest';
import { unhandled } from '../../scripts/vitest-msw.mjs';
import { createHandlers } from '../src/adapters/msw.js';
import { createMockServer, type MockSnapshot } from '../src/index.js';

describe('the test kit', () => {
  const mock = createMockServer();

  it('gives each test client a new organization, in-process, in either variant', async () => {
    const cardrail = mock.client();
    const users = mock.client({ variant: 'user' });
    const customer = await cardrail.customers.create({ email: 'ada@example.com' });
    const user = await users.users.create({ email: 'grace@example.com' });
    // Two organizations: neither sees the other's objects (404, never 403).
    await expect(users.users.retrieve(customer.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(cardrail.customers.retrieve(user.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(cardrail.mode).toBe('test');
  });

  it('sets up a funded card holder in one call, in the variant of the client', async () => {
    const cardrail = mock.client();
    const { owner, agent, card } = await mock.cardholder({
      client: cardrail,
      balance: 50_000,
      card: { limits: { amount: 20_000, currency: 'usd', interval: 'monthly' }, policy: { requireApproval: true } },
    });
    expect(agent.customerId).toBe(owner.id);
    expect(card).toMatchObject({
      agentId: agent.id,
      customerId: owner.id,
      limits: { amount: 20_000 },
      policy: { requireApproval: true },
    });
    expect((await cardrail.customers.balances(owner.id)).available).toBe(50_000);

    const users = mock.client({ variant: 'user' });
    const holder = await mock.cardholder({ client: users, card: { limits: { perAuth: 5_000 }, ttlDays: 3 } });
    expect(holder.agent.userId).toBe(holder.owner.id);
    expect(holder.card).toMatchObject({ userId: holder.owner.id, limits: { perAuth: 5_000 }, ttlDays: 3 });
    const approved = await users.simulate.authorize({ cardId: holder.card.id, amount: 2_000, merchant: { name: 'OpenAI' } });
    expect(approved.status).toBe('pending');
  });

  it('receives verified, typed webhook events in-process, in the client variant’s names and envelope', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail });
    const { card } = await mock.cardholder({ client: cardrail });
    await cardrail.simulate.authorize({ cardId: card.id, amount: 2_500, merchant: { name: 'OpenAI', mcc: '5734' } });
    const created = await inbox.waitFor('transaction.created');
    expect(created.data).toMatchObject({ amount: 2_500, cardId: card.id, merchant: { name: 'OpenAI', mcc: '5734' } });
    expect(typeof created.createdAt).toBe('string');
    expect(inbox.rejected).toEqual([]);

    const users = mock.client({ variant: 'user' });
    const userInbox = await mock.webhookInbox({ client: users, events: ['transaction.authorized'] });
    const holder = await mock.cardholder({ client: users });
    await users.simulate.authorize({ cardId: holder.card.id, amount: 700, merchant: { name: 'OpenAI' } });
    const authorized = await userInbox.waitFor('transaction.authorized', (event) => event.data.amount === 700);
    expect(typeof authorized.createdAt).toBe('number');
    expect(authorized.data.userId).toBe(holder.owner.id);
    // Subscribed to one type: the card and owner events of the set-up did not arrive.
    expect(new Set(userInbox.events.map((event) => event.type))).toEqual(new Set(['transaction.authorized']));
  });

  it('rejects waitFor with the types that did arrive', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail });
    await cardrail.customers.create({ email: 'lin@example.com' });
    await inbox.waitFor('user.created');
    await expect(inbox.waitFor('card.frozen', undefined, { timeoutMs: 50 })).rejects.toThrow(
      /No card\.frozen event arrived within 50 ms; arrived: user\.created, verification\.initiated/,
    );
  });

  it('stops receiving once the inbox is closed', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail });
    await inbox.close();
    await cardrail.customers.create({ email: 'closed@example.com' });
    await mock.idle();
    expect(inbox.events).toEqual([]);
    await expect(cardrail.webhooks.retrieve(inbox.webhook.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses an inbox for a client the mock did not make', async () => {
    const other = createMockServer().client();
    await expect(mock.webhookInbox({ client: other })).rejects.toThrow(
      /needs a client made by mock\.client\(\) of this mock.*pass the key it uses instead: mock\.webhookInbox\(\{ apiKey \}\)/,
    );
  });

  it('works for the app’s own client, by the key it uses', async () => {
    const apiKey = 'sk_test_appownclient1';
    const app = new Cardrail({ apiKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch: mock.handle, maxRetries: 0 });
    const inbox = await mock.webhookInbox({ apiKey, events: ['transaction.created'] });
    const { card } = await mock.cardholder({ apiKey, balance: 5_000 });
    await app.simulate.authorize({ cardId: card.id, amount: 300, merchant: { name: 'Shop' } });
    expect((await inbox.waitFor('transaction.created')).data).toMatchObject({ cardId: card.id, amount: 300 });
    expect(inbox.rejected).toEqual([]);
    expect((await mock.client({ apiKey }).cards.retrieve(card.id)).id).toBe(card.id);

    // A key first used through the user variant: the kit speaks it without being told.
    const userKey = 'sk_test_appuserclient';
    const users = new CardrailUsers({ apiKey: userKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch: mock.handle, maxRetries: 0 });
    const user = await users.users.create({ email: 'own@example.com' });
    expect(mock.client({ apiKey: userKey })).toBeInstanceOf(CardrailUsers);
    const holder = await mock.cardholder({ apiKey: userKey, variant: 'user' });
    expect(holder.owner.id).not.toBe(user.id);
    expect((await users.users.list()).data).toHaveLength(2);
  });

  it('lists in-process events in each organization’s variant names and envelope', async () => {
    const cardrail = mock.client();
    const { card } = await mock.cardholder({ client: cardrail });
    await cardrail.simulate.authorize({ cardId: card.id, amount: 100, merchant: { name: 'Shop' } });
    // The same names GET /events answers this Bearer organization.
    expect((await cardrail.events.list({ type: 'transaction.created' })).data).toHaveLength(1);
    const [created] = mock.events.list({ type: 'transaction.created' }).filter((event) => event.data.cardId === card.id);
    expect(created?.data.amount).toBe(100);
    expect(mock.events.list({ type: 'transaction.authorized' }).filter((event) => event.data.cardId === card.id)).toEqual([]);
  });

  describe('isolation of concurrent tests', () => {
    test.concurrent.each([1, 2, 3, 4])('test %i sees only its own objects', async (n) => {
      const client = mock.client();
      await client.customers.create({ email: `concurrent-${n}@example.com` });
      const listed = await client.customers.list();
      expect(listed.data.map((customer) => customer.email)).toEqual([`concurrent-${n}@example.com`]);
    });
  });
});

describe('seeding once and restoring before each test', () => {
  const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
  const users = mock.client({ variant: 'user' });
  let seeded: MockSnapshot;
  let cardId: string;

  beforeAll(async () => {
    const { card } = await mock.cardholder({ client: users, balance: 10_000 });
    cardId = card.id;
    // Through JSON, as a suite that keeps its seed in a file would.
    seeded = JSON.parse(JSON.stringify(mock.snapshot())) as MockSnapshot;
  });
  beforeEach(() => mock.restore(seeded));

  test.each([1, 2])('test %i starts from the seed, whatever the one before spent', async () => {
    expect((await users.transactions.list()).data).toEqual([]);
    // 6,000 of the 10,000 balance: without the restore, the second test's authorization would be declined.
    const authorized = await users.simulate.authorize({ cardId, amount: 6_000, merchant: { name: 'Shop' } });
    expect(authorized.status).toBe('pending'); // approved, in the user variant's status names
    // The restored organization still speaks the user variant in-process (it was first used through it).
    const [created] = mock.events.list({ type: 'transaction.authorized' }).filter((event) => event.data.cardId === cardId);
    expect(created?.data).toMatchObject({ amount: 6_000, userId: expect.any(String) });
  });
});

describe('a snapshot restored', () => {
  it('is a copy both ways: later changes to either side never reach the other, and odd metadata keys survive', async () => {
    const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
    const client = mock.client();
    // A key JSON allows and a careless copy would turn into the object's prototype.
    const metadata = JSON.parse('{"__proto__": "kept", "team": "research"}') as Record<string, string>;
    const customer = await client.customers.create({ email: 'copy@example.com', metadata });
    const snapshot = mock.snapshot();

    await client.customers.update(customer.id, { metadata: { team: 'changed after the snapshot' } });
    mock.restore(snapshot);
    const restored = await client.customers.retrieve(customer.id);
    expect(Object.entries(restored.metadata ?? {})).toEqual([
      ['__proto__', 'kept'],
      ['team', 'research'],
    ]);

    // The snapshot stays as taken, whatever the restored mock does next; and it restores again.
    await client.customers.update(customer.id, { metadata: { team: 'changed after the restore' } });
    mock.restore(snapshot);
    expect((await client.customers.retrieve(customer.id)).metadata?.team).toBe('research');
  });
});

describe('the test kit beside MSW', () => {
  const mock = createHandlers();
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen(unhandled('error')));
  afterAll(() => server.close());

  it('keeps its clients in-process while MSW intercepts the global fetch', async () => {
    const client = mock.client();
    const customer = await client.customers.create({ email: 'msw@example.com' });
    const inbox = await mock.webhookInbox({ client });
    await client.customers.update(customer.id, { name: { first: 'Ada' } });
    expect((await inbox.waitFor('user.updated')).data.userId).toBe(customer.id);
  });
});

describe('the test kit of the Node server', () => {
  it('works as soon as startMockServer resolves: its SDK clients load while the server starts answering', async () => {
    const { startMockServer } = await import('../src/adapters/node.js');
    const running = await startMockServer({ port: 0, dashboard: false });
    try {
      const cardrail = running.mock.client();
      const { card } = await running.mock.cardholder({ client: cardrail, balance: 10_000 });
      const inbox = await running.mock.webhookInbox({ client: cardrail, events: ['transaction.created'] });
      await cardrail.simulate.authorize({ cardId: card.id, amount: 700, merchant: { name: 'Shop', mcc: '5411' } });
      const created = await inbox.waitFor('transaction.created');
      expect(created.data).toMatchObject({ cardId: card.id, amount: 700 });
    } finally {
      await running.close();
    }
  });
});

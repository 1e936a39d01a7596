import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { FROZEN_AT, FROZEN_MS, newKey } from './support/keys.js';

describe.each(TRANSPORTS)('resources and their state machines through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport);
  });
  afterAll(() => h.close());

  /** The events of the key's organization since `from` (an index into its log), as [type, data] pairs. */
  const eventsOf = (key: string, from = 0) =>
    h.mock.events
      .list({ apiKey: key })
      .slice(from)
      .map((event) => [event.type, event.data] as const);

  async function setup(key: string) {
    const customer = (
      await h.call('POST', '/customers', { key, body: { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } } })
    ).body;
    const agent = (await h.call('POST', '/agents', { key, body: { customerId: customer.id, name: 'Buyer' } })).body;
    const card = (await h.call('POST', '/cards', { key, body: { customerId: customer.id, agentId: agent.id } })).body;
    return { customer, agent, card };
  }

  describe('customers and users', () => {
    it('creates a pending customer with a zero balance, and emits user.created and verification.initiated', async () => {
      const key = newKey();
      const created = await h.call('POST', '/customers', {
        key,
        body: { email: 'ada@example.com', name: { first: 'Ada' }, metadata: { team: 'r&d' } },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        type: 'consumer',
        status: 'pending',
        kycStatus: 'pending',
        depositAddress: null,
        phone: null,
        createdAt: FROZEN_AT,
      });
      expect(created.body.id).toMatch(/^cus_/);
      expect(eventsOf(key)).toEqual([
        ['user.created', { userId: created.body.id, email: 'ada@example.com', firstName: 'Ada', lastName: null }],
        ['verification.initiated', { userId: created.body.id, issuerUserId: expect.any(String), applicationStatus: 'pending' }],
      ]);
      const balance = await h.call('GET', `/customers/${created.body.id}/balances`, { key });
      expect(balance.body).toEqual({ currency: 'usd', available: 0, pending: 0, posted: 0, limit: null, updatedAt: FROZEN_AT });
      expect((await h.call('GET', `/users/${created.body.id}/balances`, { key, variant: 'user' })).body).toEqual(balance.body);
      expect((await h.call('GET', '/customers/cus_missing/balances', { key })).status).toBe(404);
    });

    it('updates with user.updated naming the changed fields only', async () => {
      const key = newKey();
      const { id } = (await h.call('POST', '/users', { key, variant: 'user', body: { email: 'ada@example.com' } })).body;
      const before = eventsOf(key).length;
      const updated = await h.call('PATCH', `/users/${id}`, {
        key,
        variant: 'user',
        body: { email: 'ada@example.com', phone: '+14155550100', metadata: { a: 1 } },
      });
      expect(updated.body).toMatchObject({ phone: '+14155550100', metadata: { a: 1 } });
      expect(eventsOf(key, before)).toEqual([
        ['user.updated', { userId: id, email: 'ada@example.com', updatedFields: ['phone', 'metadata'] }],
      ]);
      await h.call('PATCH', `/users/${id}`, { key, variant: 'user', body: { phone: '+14155550100' } });
      expect(eventsOf(key, before)).toHaveLength(1);
      expect((await h.call('PATCH', `/users/${id}`, { key, variant: 'user', body: {} })).status).toBe(400);
    });

    it('deletes: answers status deleted, deletes its agents, closes their cards, and is 404 afterwards', async () => {
      const key = newKey();
      const { customer, agent, card } = await setup(key);
      const agentless = (await h.call('POST', '/cards', { key, body: { customerId: customer.id } })).body;
      const before = eventsOf(key).length;
      const deleted = await h.call('DELETE', `/customers/${customer.id}`, { key });
      expect(deleted.status).toBe(200);
      expect(deleted.body.status).toBe('deleted');
      expect(eventsOf(key, before)).toEqual([
        ['card.closed', { cardId: card.id, agentId: agent.id, reason: 'agent_deleted', closedBy: 'api' }],
        ['card.closed', { cardId: agentless.id, agentId: null, reason: 'manual', closedBy: 'api' }],
        ['user.deleted', { userId: customer.id, email: 'ada@example.com' }],
      ]);
      expect((await h.call('GET', `/cards/${card.id}`, { key })).body.status).toBe('closed');
      expect((await h.call('GET', `/cards/${agentless.id}`, { key })).body.status).toBe('closed');
      for (const path of [`/agents/${agent.id}`, `/customers/${customer.id}`, `/customers/${customer.id}/balances`]) {
        expect((await h.call('GET', path, { key })).status).toBe(404);
      }
      expect((await h.call('GET', '/customers', { key })).body.data).toEqual([]);
      expect((await h.call('DELETE', `/customers/${customer.id}`, { key })).status).toBe(404);
      // A deleted customer gets no new agents or cards.
      expect((await h.call('POST', '/agents', { key, body: { customerId: customer.id, name: 'x' } })).status).toBe(404);
      expect((await h.call('POST', '/cards', { key, body: { customerId: customer.id } })).status).toBe(404);
      expect((await h.call('DELETE', '/customers/cus_missing', { key })).status).toBe(404);
    });
  });

  describe('agents', () => {
    it('creates, lists with filters, gets and updates agents', async () => {
      const key = newKey();
      const { customer, agent } = await setup(key);
      expect(agent).toMatchObject({ status: 'active', customerId: customer.id, externalId: null, limits: null });
      expect(eventsOf(key).find(([type]) => type === 'agent.created')).toEqual([
        'agent.created',
        { agentId: agent.id, userId: customer.id, name: 'Buyer', status: 'active' },
      ]);
      const other = (await h.call('POST', '/customers', { key, body: { email: 'bob@example.com' } })).body;
      await h.call('POST', '/agents', { key, body: { customerId: other.id, name: 'Other' } });
      const mine = await h.call('GET', `/agents?customerId=${customer.id}`, { key });
      expect(mine.body.data.map((a: { id: string }) => a.id)).toEqual([agent.id]);
      const updated = await h.call('PATCH', `/agents/${agent.id}`, {
        key,
        body: { name: 'Buyer 2', limits: { amount: 1000, currency: 'usd', interval: 'monthly' } },
      });
      expect(updated.body).toMatchObject({ name: 'Buyer 2', limits: { amount: 1000, currency: 'usd', interval: 'monthly' } });
      expect((await h.call('GET', `/agents/${agent.id}`, { key })).body.name).toBe('Buyer 2');
      expect((await h.call('POST', '/agents', { key, body: { customerId: 'cus_nope', name: 'x' } })).status).toBe(404);
      expect((await h.call('GET', '/agents/agt_missing', { key })).status).toBe(404);
    });

    it('suspends (freezing its active cards with agent_suspended) and activates', async () => {
      const key = newKey();
      const { customer, agent, card } = await setup(key);
      const second = (await h.call('POST', '/cards', { key, body: { customerId: customer.id, agentId: agent.id } })).body;
      const closed = (await h.call('POST', '/cards', { key, body: { customerId: customer.id, agentId: agent.id } })).body;
      await h.call('POST', `/cards/${closed.id}/close`, { key });
      const before = eventsOf(key).length;

      const suspended = await h.call('POST', `/agents/${agent.id}/suspend`, { key });
      expect(suspended.body.status).toBe('suspended');
      expect(eventsOf(key, before)).toEqual([
        ['agent.suspended', { agentId: agent.id, userId: customer.id, reason: 'manual', suspendedBy: 'api' }],
        ['card.frozen', { cardId: second.id, agentId: agent.id, reason: 'agent_suspended', frozenBy: 'system' }],
        ['card.frozen', { cardId: card.id, agentId: agent.id, reason: 'agent_suspended', frozenBy: 'system' }],
      ]);
      expect((await h.call('GET', `/cards/${card.id}`, { key })).body.status).toBe('frozen');
      expect((await h.call('GET', `/cards/${closed.id}`, { key })).body.status).toBe('closed');
      expect((await h.call('GET', '/agents?status=suspended', { key })).body.data).toHaveLength(1);

      const again = await h.call('POST', `/agents/${agent.id}/suspend`, { key });
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe('invalid_state');

      const activated = await h.call('POST', `/agents/${agent.id}/activate`, { key });
      expect(activated.body.status).toBe('active');
      expect(eventsOf(key, before + 3)).toEqual([
        ['agent.activated', { agentId: agent.id, userId: customer.id, previousStatus: 'suspended', activatedBy: 'api' }],
      ]);
      expect((await h.call('POST', `/agents/${agent.id}/activate`, { key })).body.error.code).toBe('invalid_state');
    });

    it('deletes: its cards are closed with agent_deleted and the agent is gone', async () => {
      const key = newKey();
      const { agent, card } = await setup(key);
      const before = eventsOf(key).length;
      const deleted = await h.call('DELETE', `/agents/${agent.id}`, { key });
      expect(deleted.body).toEqual({ id: agent.id, deleted: true });
      expect(eventsOf(key, before)).toEqual([
        ['card.closed', { cardId: card.id, agentId: agent.id, reason: 'agent_deleted', closedBy: 'system' }],
      ]);
      expect((await h.call('GET', `/agents/${agent.id}`, { key })).status).toBe(404);
      expect((await h.call('GET', `/cards/${card.id}`, { key })).body.status).toBe('closed');
    });
  });

  describe('cards', () => {
    it('creates a card in the customer variant shape with card.created', async () => {
      const key = newKey();
      const { customer, agent, card } = await setup(key);
      expect(card).toMatchObject({
        customerId: customer.id,
        agentId: agent.id,
        type: 'virtual',
        usage: 'multi',
        status: 'active',
        createdAt: FROZEN_AT,
        expiresAt: null,
      });
      expect(card.last4).toMatch(/^\d{4}$/);
      expect(eventsOf(key).at(-1)).toEqual([
        'card.created',
        {
          cardId: card.id,
          agentId: agent.id,
          userId: customer.id,
          type: 'multi',
          purpose: '',
          last4: card.last4,
          status: 'active',
        },
      ]);
      const ttl = await h.call('POST', '/cards', { key, body: { customerId: customer.id, policy: { ttlMinutes: 30 } } });
      expect(ttl.body.expiresAt).toBe(new Date(FROZEN_MS + 30 * 60_000).toISOString());
      expect(ttl.body.agentId).toBeNull();
    });

    it("refuses a card for an unknown customer or another customer's agent", async () => {
      const key = newKey();
      const { agent } = await setup(key);
      const other = (await h.call('POST', '/customers', { key, body: { email: 'bob@example.com' } })).body;
      expect((await h.call('POST', '/cards', { key, body: { customerId: 'cus_nope' } })).status).toBe(404);
      const foreign = await h.call('POST', '/cards', { key, body: { customerId: other.id, agentId: agent.id } });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error.details.field).toBe('/body/agentId');
    });

    it('creates and answers user-variant cards (userId, type single/multi, createdAt epoch ms, top-level controls)', async () => {
      const key = newKey();
      const { customer, agent } = await setup(key);
      const created = await h.call('POST', '/cards', {
        key,
        variant: 'user',
        body: {
          agentId: agent.id,
          type: 'single',
          purpose: 'GPU credits',
          limits: { perAuth: 5000 },
          ttlDays: 2,
          requireApproval: true,
          merchantHint: 'OpenAI',
        },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        agentId: agent.id,
        userId: customer.id,
        type: 'single',
        purpose: 'GPU credits',
        status: 'active',
        createdAt: FROZEN_MS,
        limits: { perAuth: 5000 },
        ttlDays: 2,
        requireApproval: true,
        merchantHint: 'OpenAI',
      });
      // The same card through the customer variant.
      const seen = await h.call('GET', `/cards/${created.body.id}`, { key });
      expect(seen.body).toMatchObject({
        usage: 'single',
        customerId: customer.id,
        policy: { limits: { perAuth: 5000 }, ttlDays: 2, requireApproval: true },
      });
      expect(seen.body.expiresAt).toBe(new Date(FROZEN_MS + 2 * 86_400_000).toISOString());
      const limited = await h.call('PATCH', `/cards/${created.body.id}`, {
        key,
        variant: 'user',
        body: { limits: { perDay: 100 } },
      });
      expect(limited.body.limits).toEqual({ perDay: 100 });
    });

    it('freezes, unfreezes and closes, with the events of docs/resources.md', async () => {
      const key = newKey();
      const { agent, card } = await setup(key);
      const before = eventsOf(key).length;
      expect((await h.call('POST', `/cards/${card.id}/freeze`, { key })).body.status).toBe('frozen');
      // Freezing a frozen card changes nothing.
      expect((await h.call('POST', `/cards/${card.id}/freeze`, { key })).body.status).toBe('frozen');
      expect((await h.call('PATCH', `/cards/${card.id}`, { key, body: { status: 'active' } })).body.status).toBe('active');
      expect((await h.call('PATCH', `/cards/${card.id}`, { key, variant: 'user', body: { status: 'frozen' } })).body.status).toBe(
        'frozen',
      );
      expect((await h.call('POST', `/cards/${card.id}/close`, { key })).body.status).toBe('closed');
      expect(eventsOf(key, before)).toEqual([
        ['card.frozen', { cardId: card.id, agentId: agent.id, reason: 'manual', frozenBy: 'api' }],
        ['card.frozen', { cardId: card.id, agentId: agent.id, reason: 'manual', frozenBy: 'api' }],
        ['card.closed', { cardId: card.id, agentId: agent.id, reason: 'manual', closedBy: 'api' }],
      ]);
      for (const [method, path, body] of [
        ['POST', `/cards/${card.id}/close`, undefined],
        ['POST', `/cards/${card.id}/freeze`, undefined],
        ['PATCH', `/cards/${card.id}`, { status: 'active' }],
      ] as const) {
        const answer = await h.call(method, path, { key, body });
        expect(answer.status, path).toBe(400);
        expect(answer.body.error.code).toBe('invalid_state');
      }
      expect((await h.call('POST', '/cards/card_missing/freeze', { key })).status).toBe(404);
      expect((await h.call('PATCH', `/cards/${card.id}`, { key, body: { status: 'closed' } })).status).toBe(400);
    });

    it('lists cards with customer, agent and status filters', async () => {
      const key = newKey();
      const { customer, agent, card } = await setup(key);
      const loose = (await h.call('POST', '/cards', { key, body: { customerId: customer.id } })).body;
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      const ids = async (query: string) =>
        (await h.call('GET', `/cards?${query}`, { key })).body.data.map((c: { id: string }) => c.id);
      expect(await ids(`customerId=${customer.id}`)).toEqual([loose.id, card.id]);
      expect(await ids(`agentId=${agent.id}`)).toEqual([card.id]);
      expect(await ids('status=frozen')).toEqual([card.id]);
      expect(await ids(`status=active&customerId=${customer.id}`)).toEqual([loose.id]);
      const userView = await h.call('GET', '/cards?status=frozen', { key, variant: 'user' });
      expect(userView.body.data[0]).toMatchObject({ id: card.id, userId: customer.id, status: 'frozen' });
    });
  });

  describe('events', () => {
    it('lists and gets events in the general envelope for Bearer and the catalog envelope for Api-Key', async () => {
      const key = newKey();
      const { customer } = await setup(key);
      const general = await h.call('GET', '/events?limit=100', { key });
      const catalog = await h.call('GET', '/events?limit=100', { key, variant: 'user' });
      expect(general.body.data.map((e: { type: string }) => e.type)).toEqual([
        'card.created',
        'agent.created',
        'verification.initiated',
        'user.created',
      ]);
      const [newestGeneral] = general.body.data;
      const [newestCatalog] = catalog.body.data;
      expect(newestGeneral).toEqual({
        id: newestGeneral.id,
        type: 'card.created',
        createdAt: FROZEN_AT,
        data: newestGeneral.data,
      });
      const organizationId = h.mock.tenantOf(key)?.organizationId;
      expect(newestCatalog).toEqual({ ...newestGeneral, organizationId, createdAt: FROZEN_MS });

      const byType = await h.call('GET', '/events?type=user.created', { key });
      expect(byType.body.data).toHaveLength(1);
      expect(byType.body.data[0].data.userId).toBe(customer.id);
      const one = await h.call('GET', `/events/${newestGeneral.id}`, { key, variant: 'user' });
      expect(one.body).toEqual(newestCatalog);
      expect((await h.call('GET', '/events/evt_missing', { key })).status).toBe(404);
      expect((await h.call('GET', `/events/${newestGeneral.id}`, { key: newKey() })).status).toBe(404);
    });
  });
});

import { type Cardrail, type CardrailUsers, NotFoundError } from '@cardrail/sdk';
import { describe, expect, it } from 'vitest';
import type { TestKitMock } from '../../src/index.js';

/** A mock under test, and how the app under test would build its own client of it. */
export interface KitUnderTest {
  mock: TestKitMock;
  /** The app's own client: `new Cardrail({ apiKey, baseUrl })` pointed at this mock. */
  appClient(apiKey: string, maxRetries?: number): Cardrail;
  appUsersClient(apiKey: string): CardrailUsers;
}

/**
 * The test kit's behaviour, whatever side of a process boundary the mock is on: the in-process mock and a remote one
 * (connectMock against `cardrail-mock --control`) must pass it alike.
 */
export function testKitSuite(name: string, setup: () => KitUnderTest): void {
  describe(`the test kit (${name})`, () => {
    it('gives each client a new organization, in either variant', async () => {
      const { mock } = setup();
      const cardrail = mock.client();
      const users = mock.client({ variant: 'user' });
      const customer = await cardrail.customers.create({ email: 'ada@example.com' });
      await users.users.create({ email: 'grace@example.com' });
      await expect(users.users.retrieve(customer.id)).rejects.toBeInstanceOf(NotFoundError);
      expect((await users.users.list()).data).toHaveLength(1);
    });

    it('sets up a funded card holder and receives verified, typed webhooks', async () => {
      const { mock } = setup();
      const cardrail = mock.client();
      const inbox = await mock.webhookInbox({ client: cardrail, events: ['transaction.created'] });
      const { owner, card } = await mock.cardholder({ client: cardrail, balance: 50_000 });
      expect((await cardrail.customers.balances(owner.id)).available).toBe(50_000);
      await cardrail.simulate.authorize({ cardId: card.id, amount: 2_500, merchant: { name: 'OpenAI', mcc: '5734' } });
      const created = await inbox.waitFor('transaction.created', undefined, { timeoutMs: 10_000 });
      expect(created.data).toMatchObject({ amount: 2_500, cardId: card.id });
      expect(inbox.rejected).toEqual([]);
      await inbox.close();
    });

    it('works for the app’s own client by its key, inferring a user-variant organization', async () => {
      const { mock, appClient, appUsersClient } = setup();
      const apiKey = `sk_test_app${Math.random().toString(36).slice(2, 12)}`;
      const app = appClient(apiKey);
      const inbox = await mock.webhookInbox({ apiKey, events: ['transaction.created'] });
      const { card } = await mock.cardholder({ apiKey, balance: 5_000 });
      await app.simulate.authorize({ cardId: card.id, amount: 300, merchant: { name: 'Shop' } });
      expect((await inbox.waitFor('transaction.created', undefined, { timeoutMs: 10_000 })).data.cardId).toBe(card.id);
      expect(inbox.rejected).toEqual([]);

      const userKey = `sk_test_usr${Math.random().toString(36).slice(2, 12)}`;
      await appUsersClient(userKey).users.create({ email: 'own@example.com' });
      const holder = await mock.cardholder({ apiKey: userKey });
      expect(holder.owner.id).toMatch(/^cus_/);
      expect((await appUsersClient(userKey).users.list()).data).toHaveLength(2);
    });

    it('triggers an event through the client, and the organization’s webhook receives it', async () => {
      const { mock } = setup();
      const cardrail = mock.client();
      const inbox = await mock.webhookInbox({ client: cardrail, events: ['card.frozen'] });
      const frozen = await mock.trigger('card.frozen', { client: cardrail });
      expect((await inbox.waitFor('card.frozen', undefined, { timeoutMs: 10_000 })).id).toBe(frozen.id);
    });

    it('restores a snapshot: later changes are gone', async () => {
      const { mock } = setup();
      const cardrail = mock.client();
      await cardrail.customers.create({ email: 'kept@example.com' });
      const seeded = await mock.snapshot();
      await cardrail.customers.create({ email: 'gone@example.com' });
      await mock.restore(seeded);
      expect((await cardrail.customers.list()).data.map((c) => c.email)).toEqual(['kept@example.com']);
    });

    it('advances every organization’s clock', async () => {
      const { mock } = setup();
      const cardrail = mock.client();
      const before = (await cardrail.simulate.clock.retrieve()).now;
      await mock.clock.advance(3_600);
      const after = (await cardrail.simulate.clock.retrieve()).now;
      expect(Date.parse(after) - Date.parse(before)).toBeGreaterThanOrEqual(3_600_000);
    });

    it('a 503 injected on createCard once: the SDK succeeds on its retry and exactly one card is created', async () => {
      const { mock, appClient } = setup();
      const apiKey = `sk_test_flt${Math.random().toString(36).slice(2, 12)}`;
      const { owner, agent } = await mock.cardholder({ apiKey });
      const app = appClient(apiKey, 2);
      const before = (await app.cards.list({ agentId: agent.id })).data.length;
      await mock.faults.inject({ apiKey, operation: 'createCard', status: 503, retryAfter: 0, times: 1 });
      const card = await app.cards.create({ customerId: owner.id, agentId: agent.id });
      expect((await app.cards.list({ agentId: agent.id })).data.map((c) => c.id)).toContain(card.id);
      expect((await app.cards.list({ agentId: agent.id })).data).toHaveLength(before + 1);
    });

    it('a fault after the commit, then a retry with the same Idempotency-Key: one object, replayed', async () => {
      const { mock, appClient } = setup();
      const apiKey = `sk_test_cmt${Math.random().toString(36).slice(2, 12)}`;
      await mock.faults.inject({ apiKey, operation: 'createCustomer', status: 500, afterCommit: true, times: 1 });
      const { data, response } = await appClient(apiKey, 2).customers.create({ email: 'once@example.com' }).withResponse();
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      expect((await appClient(apiKey).customers.list()).data.map((c) => c.id)).toEqual([data.id]);
    });

    it('reset forgets the organizations and the faults', async () => {
      const { mock } = setup();
      const apiKey = `sk_test_rst${Math.random().toString(36).slice(2, 12)}`;
      const client = mock.client({ apiKey });
      await client.customers.create({ email: 'x@example.com' });
      await mock.faults.inject({ apiKey, status: 503 });
      await mock.reset();
      expect((await client.customers.list()).data).toEqual([]);
    });
  });
}

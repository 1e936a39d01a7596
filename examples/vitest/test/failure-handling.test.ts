import { createMockServer } from '@cardrail/mock-server';
import { InternalServerError } from '@cardrail/sdk';
import { expect, test } from 'vitest';

const mock = createMockServer();

test('a test-kit client sees an injected 503; a client that retries creates exactly one card', async () => {
  // mock.client() does not retry (maxRetries: 0): the test sees every answer the mock gives, a fault's included.
  const cardrail = mock.client();
  const { owner, agent } = await mock.cardholder({ client: cardrail });
  mock.faults.inject({ operation: 'createCard', status: 503, retryAfter: 0, times: 1 });
  const created = cardrail.cards.create({ customerId: owner.id, agentId: agent.id, type: 'virtual', usage: 'multi' });
  await expect(created).rejects.toBeInstanceOf(InternalServerError);

  // A client that retries as the SDK does by default (maxRetries: 2) gets past the one 503.
  const retrying = mock.client({ maxRetries: 2 });
  const holder = await mock.cardholder({ client: retrying });
  mock.faults.inject({ operation: 'createCard', status: 503, retryAfter: 0, times: 1 });
  const card = await retrying.cards.create({
    customerId: holder.owner.id,
    agentId: holder.agent.id,
    type: 'virtual',
    usage: 'multi',
  });
  const cards = await retrying.cards.list({ agentId: holder.agent.id });
  expect(cards.data.map(({ id }) => id).sort()).toEqual([holder.card.id, card.id].sort());
});

import { createMockServer } from '@cardrail/mock-server';
import { expect, test } from 'vitest';

const mock = createMockServer();

test('an authorization on a funded card reaches my webhook', async () => {
  const cardrail = mock.client();
  const inbox = await mock.webhookInbox({ client: cardrail });
  const { card } = await mock.cardholder({ client: cardrail });
  await cardrail.simulate.authorize({ cardId: card.id, amount: 2500, merchant: { name: 'OpenAI' } });
  expect((await inbox.waitFor('transaction.created')).data.amount).toBe(2500);
});

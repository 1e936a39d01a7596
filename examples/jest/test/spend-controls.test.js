// A CommonJS jest suite: require() of the published entry points, nothing else from the repository.
const { createMockServer } = require('@cardrail/mock-server');

const mock = createMockServer();

describe('spend controls under jest', () => {
  test('an authorization on a funded card reaches my webhook', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail });
    const { card } = await mock.cardholder({ client: cardrail });
    await cardrail.simulate.authorize({ cardId: card.id, amount: 2500, merchant: { name: 'OpenAI' } });
    const event = await inbox.waitFor('transaction.created');
    expect(event.data.amount).toBe(2500);
    expect(inbox.rejected).toEqual([]);
  });

  test('a person approves the intent of a card that requires approval', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail, events: ['intent.approved'] });
    const { card } = await mock.cardholder({ client: cardrail, card: { policy: { requireApproval: true } } });
    const intent = await cardrail.intents.create({ cardId: card.id, summary: 'GPU credits', expectedAmount: 2000 });
    expect(intent.status).toBe('pending_approval');
    await cardrail.intents.approve(intent.id);
    expect((await inbox.waitFor('intent.approved')).data.intentId).toBe(intent.id);
  });

  test('a card with a time-to-live closes when the test clock passes it', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail, events: ['card.expired'] });
    const { card } = await mock.cardholder({ client: cardrail, card: { policy: { ttlMinutes: 60 } } });
    await cardrail.simulate.clock.advance({ seconds: 3600 });
    expect((await cardrail.cards.retrieve(card.id)).status).toBe('closed');
    expect((await inbox.waitFor('card.expired')).data.cardId).toBe(card.id);
  });
});

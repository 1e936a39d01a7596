// The three situations a suite most often needs: an authorization with its webhook, a person approving an
// intent, and a card's time-to-live running out on the test clock. Only the published entry points are used.
import { createMockServer } from '@cardrail/mock-server';
import { describe, expect, it } from 'vitest';

const mock = createMockServer();

describe('spend controls', () => {
  it('declines above the card limit and reports the decline to the webhook', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail, events: ['transaction.created', 'transaction.declined'] });
    const { card } = await mock.cardholder({
      client: cardrail,
      card: { limits: { amount: 5_000, currency: 'usd', interval: 'per_authorization' } },
    });

    const approved = await cardrail.simulate.authorize({ cardId: card.id, amount: 4_000, merchant: { name: 'OpenAI' } });
    const declined = await cardrail.simulate.authorize({ cardId: card.id, amount: 6_000, merchant: { name: 'OpenAI' } });

    expect(approved.status).toBe('pending');
    expect(declined).toMatchObject({ status: 'declined', declinedReason: 'spending_limit_exceeded' });
    expect((await inbox.waitFor('transaction.declined')).data.declinedReason).toBe('spending_limit_exceeded');
  });

  it('lets a person approve the intent of a card that requires approval', async () => {
    const cardrail = mock.client();
    const inbox = await mock.webhookInbox({ client: cardrail, events: ['intent.pending_approval', 'intent.approved'] });
    const { card } = await mock.cardholder({ client: cardrail, card: { policy: { requireApproval: true } } });

    const intent = await cardrail.intents.create({
      cardId: card.id,
      summary: 'GPU credits',
      expectedAmount: 2_000,
      expectedMerchant: 'OpenAI',
    });
    expect(intent.status).toBe('pending_approval');
    await inbox.waitFor('intent.pending_approval');

    const approved = await cardrail.intents.approve(intent.id);
    expect(approved.status).toBe('pending');
    expect((await inbox.waitFor('intent.approved')).data.intentId).toBe(intent.id);
  });

  it('closes a card when its time-to-live runs out on the test clock', async () => {
    const users = mock.client({ variant: 'user' });
    const inbox = await mock.webhookInbox({ client: users, events: ['card.expired'] });
    const { card } = await mock.cardholder({ client: users, card: { ttlDays: 1 } });

    await users.simulate.clock.advance({ seconds: 24 * 60 * 60 });

    expect((await users.cards.retrieve(card.id)).status).toBe('closed');
    expect((await inbox.waitFor('card.expired')).data).toMatchObject({ cardId: card.id, action: 'close' });
  });
});

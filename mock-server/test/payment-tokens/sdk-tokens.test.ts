// Payment tokens through the SDK's `paymentTokens` resource, both variants, over MSW and the Node server: the typed
// calls, the typed errors of a refused request, and the typed `payment_token.*` events.
import { BadRequestError, Cardrail, CardrailUsers, NotFoundError } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from '../support/harness.js';
import { newKey } from '../support/keys.js';
import { cardChallenge, type MerchantKey, merchantKey, openCredential } from './mpp-merchant.js';

let key: MerchantKey;
beforeAll(async () => {
  key = await merchantKey();
});

describe.each(TRANSPORTS)('paymentTokens through the SDK over %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport);
  });
  afterAll(() => h.close());

  it('mints, reads, lists, authorizes and revokes in the customer variant', async () => {
    const cardrail = new Cardrail({ apiKey: newKey(), baseUrl: h.baseUrl, maxRetries: 0 });
    const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    await cardrail.simulate.deposit({ customerId: customer.id, amount: 10_000 });
    const card = await cardrail.cards.create({ customerId: customer.id, type: 'virtual', usage: 'multi' });
    const challenge = cardChallenge(key, { merchantName: 'Example GPU Cloud', expires: '2026-11-21T12:30:00Z' });

    const token = await cardrail.paymentTokens.create(card.id, { mpp: { challenge } });
    expect(token.status).toBe('active');
    expect(token.customerId).toBe(customer.id);
    const authorization = token.mppCredential?.authorization ?? '';
    const { plaintext } = await openCredential(authorization, key);
    expect((await cardrail.paymentTokens.retrieve(token.id)).id).toBe(token.id);

    const txn = await cardrail.simulate.authorize({
      token: { number: plaintext.token.paymentToken, cryptogram: plaintext.dynamicData.dynamicDataValue },
      amount: 2500,
      merchant: { name: 'Example GPU Cloud' },
    });
    expect(txn).toMatchObject({ status: 'pending', paymentTokenId: token.id });
    const again = await cardrail.simulate.authorize({
      token: { number: plaintext.token.paymentToken, cryptogram: plaintext.dynamicData.dynamicDataValue },
      amount: 2500,
      merchant: { name: 'Example GPU Cloud' },
    });
    expect(again.declinedReason).toBe('token_used');

    const second = await cardrail.paymentTokens.create(card.id, { mpp: { challenge: cardChallenge(key) } });
    expect((await cardrail.paymentTokens.revoke(second.id)).status).toBe('revoked');
    const statuses: string[] = [];
    for await (const listed of cardrail.paymentTokens.list(card.id, { limit: 1 })) statuses.push(listed.status);
    expect(statuses).toEqual(['revoked', 'used']);

    const used = (await cardrail.events.list({ type: 'payment_token.used' })).data[0];
    if (used?.type !== 'payment_token.used') throw new Error('no payment_token.used event');
    expect(used.data.transactionId).toBe(txn.id);
  });

  it('answers the user variant with userId, and refuses with typed errors', async () => {
    const cardrail = new CardrailUsers({ apiKey: newKey(), baseUrl: h.baseUrl, maxRetries: 0 });
    const user = await cardrail.users.create({ email: 'grace@example.com' });
    await cardrail.simulate.deposit({ userId: user.id, amount: 10_000 });
    const agent = await cardrail.agents.create({ userId: user.id, name: 'Buyer' });
    const card = await cardrail.cards.create({ agentId: agent.id, type: 'single' });
    const token = await cardrail.paymentTokens.create(card.id, {
      acp: {
        allowance: {
          reason: 'one_time',
          max_amount: 2000,
          currency: 'usd',
          checkout_session_id: 'cs_sdk',
          merchant_id: 'merch_sdk',
          expires_at: '2026-11-21T13:00:00Z',
        },
        merchantName: 'Store',
      },
    });
    expect(token).toMatchObject({ userId: user.id, protocol: 'acp', status: 'active' });
    expect(token.networkToken?.number).toMatch(/^411111/);

    const refused = await cardrail.paymentTokens
      .create(card.id, { mpp: { challenge: 'Payment id="x' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_payment_request' });

    const stranger = new CardrailUsers({ apiKey: newKey(), baseUrl: h.baseUrl, maxRetries: 0 });
    await expect(stranger.paymentTokens.retrieve(token.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      stranger.simulate.authorize({
        token: { number: token.networkToken?.number ?? '', cryptogram: token.networkToken?.cryptogram ?? '' },
        amount: 100,
        merchant: { name: 'Store', id: 'merch_sdk' },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

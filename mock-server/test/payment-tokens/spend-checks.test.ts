// A token is minted only after everything an authorization of its amount at its merchant would meet: the policy,
// intents and approval by a person, the risk engine. Then its authorization counts like any spend of the card.
import { beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from '../engine/support/http-scenario.js';
import { cardChallenge, type MerchantKey, merchantKey, openCredential } from './mpp-merchant.js';

const MERCHANT = 'Example GPU Cloud';

let key: MerchantKey;
beforeAll(async () => {
  key = await merchantKey();
});

function mint(s: Scenario, cardId: string, options: { amount?: string; merchantName?: string; intentId?: string } = {}) {
  const challenge = cardChallenge(key, {
    amount: options.amount ?? '2500',
    merchantName: options.merchantName ?? MERCHANT,
    expires: '2026-11-23T13:00:00Z',
  });
  return s.call('POST', `/cards/${cardId}/payment-tokens`, {
    mpp: { challenge },
    ...(options.intentId ? { intentId: options.intentId } : {}),
  });
}

async function presented(authorization: string) {
  const { plaintext } = await openCredential(authorization, key);
  return { number: plaintext.token.paymentToken, cryptogram: plaintext.dynamicData.dynamicDataValue };
}

describe('the spend checks run before a token is minted', () => {
  it.each([
    ['blocked_merchant', { card: { policy: { allowedMerchants: ['AWS'] } } }],
    ['spending_limit_exceeded', { card: { policy: { limits: { perAuth: 1000 } } } }],
    ['insufficient_funds', { balance: 1000 }],
    ['blocked_mcc', { card: { policy: { allowedMccs: ['5734'] } } }],
  ] as const)('refuses what the policy declines (%s): 400 payment_token_declined, nothing minted', async (reason, setup) => {
    const s = new Scenario();
    const { card } = await s.setup(setup);
    const answer = await mint(s, card.id);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'payment_token_declined', details: { declinedReason: reason } });
    expect(answer.body.error.details.reasons[0]).toMatchObject({ code: reason });
    expect(await s.ok('GET', `/cards/${card.id}/payment-tokens`)).toMatchObject({ data: [] });
    expect(await s.newEvents('user')).toEqual([]);
  });

  it('refuses what the risk engine would stop (a spend spike that freezes the card), changing nothing', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    await s.ok('PATCH', '/settings/risk', { preset: 'permissive' });
    await s.ok('PATCH', '/settings/risk', {
      velocityLimit: { enabled: true, maxPerHour: 1, maxPerDay: 10, action: 'freeze_card' },
    });
    await s.authorize(card.id, 100);
    await s.settle();
    const answer = await mint(s, card.id);
    expect(answer.body.error).toMatchObject({ code: 'payment_token_declined', details: { declinedReason: 'fraud_suspected' } });
    expect(await s.ok('GET', `/cards/${card.id}`)).toMatchObject({ status: 'active' });
    expect(await s.newEvents('user')).toEqual([]);
  });

  it('lets a card that requires attestation pay by token: the token attests the spend', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireAttestation: true } } });
    const token = await s.ok('POST', `/cards/${card.id}/payment-tokens`, {
      mpp: { challenge: cardChallenge(key, { merchantName: MERCHANT }) },
    });
    const txn = await s.ok('POST', '/simulate/authorize', {
      token: await presented(token.mppCredential.authorization),
      amount: 2500,
      merchant: { name: MERCHANT },
    });
    expect(txn).toMatchObject({ status: 'pending', attestationStatus: 'attested' });
    // The card itself, without a credential access, is still declined and frozen.
    const other = await s.ok('POST', `/cards`, { customerId: card.customerId, policy: { requireAttestation: true } });
    expect(await s.authorize(other.id, 100)).toMatchObject({ declinedReason: 'fraud_suspected' });
  });

  it('counts a token spend against every limit of the card', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { limits: { perDay: 3000 } } } });
    const token = await s.ok('POST', `/cards/${card.id}/payment-tokens`, {
      mpp: { challenge: cardChallenge(key, { merchantName: MERCHANT }) },
    });
    await s.ok('POST', '/simulate/authorize', {
      token: await presented(token.mppCredential.authorization),
      amount: 2500,
      merchant: { name: MERCHANT },
    });
    // A second token for more than is left of the day is refused before it exists...
    const answer = await mint(s, card.id, { amount: '600' });
    expect(answer.body.error).toMatchObject({
      code: 'payment_token_declined',
      details: { declinedReason: 'spending_limit_exceeded' },
    });
    expect(await s.ok('GET', `/cards/${card.id}`)).toMatchObject({ status: 'active' });
    // ...and the card itself is declined for it (and frozen, as a broken card budget does).
    expect(await s.authorize(card.id, 600)).toMatchObject({ status: 'declined', declinedReason: 'spending_limit_exceeded' });
    expect(await s.authorize(card.id, 400)).toMatchObject({ status: 'declined', declinedReason: 'card_frozen' });
  });

  it('refuses a second token for a challenge the card already answered', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const challenge = cardChallenge(key, { id: 'ch_once', merchantName: MERCHANT });
    const first = await s.ok('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge } });
    const second = await s.call('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge } });
    expect(second.body.error).toMatchObject({ code: 'invalid_state', details: { paymentTokenId: first.id, status: 'active' } });
    // Once that token is revoked, the challenge may be answered again.
    await s.ok('POST', `/payment-tokens/${first.id}/revoke`);
    expect((await s.call('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge } })).status).toBe(201);
  });
});

describe('intents and approval by a person', () => {
  it('matches the token to a declared intent, and the authorization matches it', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireIntent: true } } });
    const intent = await s.ok('POST', '/intents', {
      cardId: card.id,
      summary: 'GPU',
      expectedAmount: 2500,
      expectedMerchant: MERCHANT,
    });
    const token = (await mint(s, card.id)).body;
    expect(token).toMatchObject({ status: 'active', intentId: intent.id });
    await s.settle();
    const txn = await s.ok('POST', '/simulate/authorize', {
      token: await presented(token.mppCredential.authorization),
      amount: 2500,
      merchant: { name: MERCHANT },
    });
    expect(txn).toMatchObject({ status: 'pending', intentId: intent.id });
    const events = await s.newEvents('user');
    expect(events.map((e) => e.type)).toContain('intent.matched');
    expect(await s.ok('GET', `/intents/${intent.id}`)).toMatchObject({ status: 'matched', matchedTransactionId: txn.id });
  });

  it('refuses a named intent the payment does not match (400 intent_required)', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'small', expectedAmount: 100 });
    const answer = await mint(s, card.id, { intentId: intent.id });
    expect(answer.body.error).toMatchObject({ code: 'intent_required', details: { intentId: intent.id, amountMatch: false } });
    const unknown = await mint(s, card.id, { intentId: 'int_nothere' });
    expect(unknown.body.error).toMatchObject({ code: 'intent_required', details: { intentId: 'int_nothere' } });
  });

  it('declares an intent where the policy requires one, and the token waits for a person when it requires approval', async () => {
    const s = new Scenario({ approvalPage: 'https://app.example/approve/{intentId}' });
    const { card } = await s.setup({ agent: { policy: { requireApproval: true } } });
    const answer = await mint(s, card.id);
    expect(answer.status).toBe(201);
    const token = answer.body;
    expect(token).toMatchObject({ status: 'pending_approval', mppCredential: null, last4: null, issuedAt: null });
    expect(token.intentId).toMatch(/^int_/);
    expect(token.approvalUrl).toBe(`https://app.example/approve/${token.intentId}`);
    const intent = await s.ok('GET', `/intents/${token.intentId}`);
    expect(intent).toMatchObject({
      status: 'pending_approval',
      expectedAmount: 2500,
      expectedMerchant: MERCHANT,
      customerIntentId: token.challengeId,
      approvalUrl: token.approvalUrl,
    });
    const created = await s.newEvents('user');
    expect(created.map((e) => e.type)).toEqual(['intent.pending_approval', 'payment_token.created']);
    expect(created[1]?.data).toMatchObject({ status: 'pending_approval', approvalUrl: token.approvalUrl });

    await s.ok('POST', `/intents/${token.intentId}/approve`);
    expect((await s.newEvents('user')).map((e) => e.type)).toEqual(['intent.approved', 'payment_token.issued']);
    const issued = await s.ok('GET', `/payment-tokens/${token.id}`);
    expect(issued).toMatchObject({ status: 'active', approvalUrl: token.approvalUrl, issuedAt: '2026-11-23T12:00:00.000Z' });
    const txn = await s.ok('POST', '/simulate/authorize', {
      token: await presented(issued.mppCredential.authorization),
      amount: 2500,
      merchant: { name: MERCHANT },
    });
    expect(txn).toMatchObject({ status: 'pending', intentId: token.intentId });
  });

  it('refuses the token when the person rejects its intent, and issues nothing', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ agent: { policy: { requireApproval: true } } });
    const token = (await mint(s, card.id)).body;
    await s.settle();
    await s.ok('POST', `/intents/${token.intentId}/reject`, { reason: 'Not this month' });
    const events = await s.newEvents('user');
    expect(events.map((e) => e.type)).toEqual(['intent.rejected', 'payment_token.rejected']);
    expect(events[1]?.data).toMatchObject({ paymentTokenId: token.id, rejectionReason: 'Not this month' });
    expect(await s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Not this month',
      last4: null,
      mppCredential: null,
    });
  });

  it('checks again when the person approves: a card frozen meanwhile gets no token', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ agent: { policy: { requireApproval: true } } });
    const token = (await mint(s, card.id)).body;
    await s.ok('POST', `/cards/${card.id}/freeze`);
    await s.ok('POST', `/intents/${token.intentId}/approve`);
    expect(await s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Declined when approved: card_frozen.',
    });
  });

  it('expires a token still waiting when its challenge expires', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ agent: { policy: { requireApproval: true } } });
    const token = (await mint(s, card.id)).body;
    await s.settle();
    await s.advance(3600);
    const expired = (await s.newEvents('user')).find((e) => e.type === 'payment_token.expired');
    expect(expired?.data).toMatchObject({ paymentTokenId: token.id, previousStatus: 'pending_approval' });
    expect(await s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({ status: 'expired', approvalUrl: null });
  });
});

describe('the list of a card', () => {
  it('pages newest first and filters by status', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await mint(s, card.id, { amount: String(100 + i) })).body.id);
    await s.ok('POST', `/payment-tokens/${ids[0]}/revoke`);
    const first = await s.ok('GET', `/cards/${card.id}/payment-tokens?limit=2`);
    expect(first.data.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    const second = await s.ok('GET', `/cards/${card.id}/payment-tokens?limit=2&cursor=${first.nextCursor}`);
    expect(second.data.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
    const revoked = await s.ok('GET', `/cards/${card.id}/payment-tokens?status=revoked`);
    expect(revoked.data.map((t: { id: string }) => t.id)).toEqual([ids[0]]);
    expect((await s.call('GET', `/cards/${card.id}/payment-tokens?status=spent`)).status).toBe(400);
  });
});

// Payment tokens for MPP card challenges through raw HTTP (mock.handle, answers checked against the spec): the token
// is minted after the spend checks, its credential opens with the merchant's private key (jose, not Cardrail's code),
// and an authorization with what it carries is approved once, then declined with the token's reasons.
import { beforeAll, describe, expect, it } from 'vitest';
import { type EnvelopeEvent, Scenario, type VariantName } from '../engine/support/http-scenario.js';
import { cardChallenge, type MerchantKey, merchantKey, openCredential } from './mpp-merchant.js';

const MERCHANT = { name: 'Example GPU Cloud', id: 'merch_7Hq2Lx9Wd4' };
/** Ten minutes after the scenarios' frozen start. */
const EXPIRES = '2026-11-23T12:10:00Z';

let key: MerchantKey;
beforeAll(async () => {
  key = await merchantKey();
});

/** A funded card, a token minted for a challenge of `MERCHANT` for 2,500 cents, and what its credential carries. */
async function mintedToken(s: Scenario, options: { variant?: VariantName; setup?: Parameters<Scenario['setup']>[0] } = {}) {
  const { card, customer } = await s.setup({ balance: 10_000, ...options.setup });
  const challenge = cardChallenge(key, { recipient: MERCHANT.id, merchantName: MERCHANT.name, expires: EXPIRES });
  const token = await s.ok('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge } }, options.variant);
  const opened = await openCredential(token.mppCredential.authorization, key);
  const presented = { number: opened.plaintext.token.paymentToken, cryptogram: opened.plaintext.dynamicData.dynamicDataValue };
  return { card, customer, challenge, token, opened, presented };
}

function authorizeToken(s: Scenario, token: { number: string; cryptogram: string }, extra: Record<string, unknown> = {}) {
  return s.ok('POST', '/simulate/authorize', { token, amount: 2500, currency: 'usd', merchant: MERCHANT, ...extra });
}

const types = (events: EnvelopeEvent[]) => events.map((event) => event.type);

describe('an MPP card challenge answered with a payment token', () => {
  it('mints an active token bound to the challenge, whose credential the merchant decrypts with its own key', async () => {
    const s = new Scenario();
    const { card, challenge, token, opened } = await mintedToken(s);
    expect(token).toMatchObject({
      protocol: 'mpp',
      status: 'active',
      cardId: card.id,
      merchant: MERCHANT,
      maxAmount: 2500,
      currency: 'usd',
      checkoutSessionId: null,
      network: 'visa',
      panLastFour: card.last4,
      expiresAt: '2026-11-23T12:10:00.000Z',
      issuedAt: '2026-11-23T12:00:00.000Z',
      networkToken: null,
    });
    expect(token.id).toMatch(/^tok_/);
    // The echoed challenge is the merchant's, parameter by parameter, `request` byte for byte.
    const sent = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    expect(token.mppCredential.challenge).toEqual(sent);
    expect(token.challengeId).toBe(sent.id);
    expect(opened.challenge).toEqual(sent);
    // The payload: the JWE and the card's display fields.
    expect(opened.payload).toEqual(token.mppCredential.payload);
    expect(opened.payload).toMatchObject({
      network: 'visa',
      panLastFour: card.last4,
      panExpirationMonth: card.expMonth,
      panExpirationYear: card.expYear,
    });
    expect(opened.payload.paymentAccountReference).toMatch(/^[A-Z0-9]{29}$/);
    expect(opened.protectedHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.publicJwk.kid });
    const { token: data, dynamicData } = opened.plaintext;
    expect(data.paymentToken).toMatch(/^411111\d{10}$/);
    expect(luhnValid(data.paymentToken)).toBe(true);
    expect(data.paymentToken.slice(-4)).toBe(token.last4);
    expect(data).toMatchObject({ tokenExpirationMonth: card.expMonth, tokenExpirationYear: card.expYear, eci: '07' });
    expect(dynamicData.dynamicDataValue).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(dynamicData).toMatchObject({
      dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM',
      dynamicDataExpiration: Date.parse(EXPIRES) / 1000,
    });
    // The card's own number is nowhere in the answer.
    const credentials = await s.ok('POST', `/cards/${card.id}/credentials`, {});
    expect(data.paymentToken).not.toBe(credentials.pan);
    expect(JSON.stringify(token)).not.toContain(credentials.pan);
    const events = await s.expectEvents(['payment_token.created', 'payment_token.issued', 'credential.accessed']);
    expect(events[0]?.data).toMatchObject({ paymentTokenId: token.id, protocol: 'mpp', status: 'active', maxAmount: 2500 });
    expect(events[1]?.data).toMatchObject({ paymentTokenId: token.id, last4: token.last4, network: 'visa' });
  });

  it('is read back with a fresh encryption of the same token, listed on its card, and in the user variant too', async () => {
    const s = new Scenario();
    const { card, token, opened } = await mintedToken(s);
    const read = await s.ok('GET', `/payment-tokens/${token.id}`);
    expect(read.mppCredential.payload.encryptedPayload).not.toBe(token.mppCredential.payload.encryptedPayload);
    expect((await openCredential(read.mppCredential.authorization, key)).plaintext).toEqual(opened.plaintext);
    const listed = await s.ok('GET', `/cards/${card.id}/payment-tokens`);
    expect(listed.data.map((t: { id: string }) => t.id)).toEqual([token.id]);
    const asUser = await s.ok('GET', `/payment-tokens/${token.id}`, undefined, 'user');
    expect(asUser.userId).toBe(token.customerId);
    expect(asUser).not.toHaveProperty('customerId');
  });

  it('authorizes the card once: the spend counts like any other, the second use is declined token_used', async () => {
    const s = new Scenario();
    const { card, customer, token, presented } = await mintedToken(s);
    await s.settle();
    const txn = await authorizeToken(s, presented);
    expect(txn).toMatchObject({
      status: 'pending',
      cardId: card.id,
      paymentTokenId: token.id,
      attestationStatus: 'attested',
      merchant: MERCHANT,
    });
    const events = await s.expectEvents([
      'transaction.authorized',
      'user.balance.updated',
      'spend.attested',
      'payment_token.used',
    ]);
    expect(events[0]?.data).toMatchObject({ transactionId: txn.id, paymentTokenId: token.id });
    expect(events[3]?.data).toMatchObject({ paymentTokenId: token.id, transactionId: txn.id, amount: 2500 });
    expect(await s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({
      status: 'used',
      transactionId: txn.id,
      usedAt: '2026-11-23T12:00:00.000Z',
      mppCredential: null,
    });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 7500, pending: 2500 });

    const again = await authorizeToken(s, presented);
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used', paymentTokenId: token.id });
    const declined = await s.expectEvents(['transaction.declined']);
    expect(declined[0]?.data).toMatchObject({ declinedReason: 'token_used', paymentTokenId: token.id });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 7500, pending: 2500 });
  });

  it.each([
    ['cryptogram_invalid', { token: 'tampered' }],
    ['token_amount_exceeded', { amount: 2501 }],
    ['token_merchant_mismatch', { merchant: { name: MERCHANT.name, id: 'merch_other' } }],
    ['token_currency_mismatch', { currency: 'eur' }],
  ] as const)('declines %s and leaves the token usable and the balance as it was', async (reason, change) => {
    const s = new Scenario();
    const { customer, token, presented } = await mintedToken(s);
    await s.settle();
    const { token: tampered, ...rest } = change as Record<string, unknown>;
    const sent = tampered ? { ...presented, cryptogram: flip(presented.cryptogram) } : presented;
    const txn = await authorizeToken(s, sent, rest);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: reason, attestationStatus: null, intentId: null });
    // Nothing but the decline: no freeze, no anomaly, no balance change.
    expect(types(await s.expectEvents(['transaction.declined']))).toEqual(['transaction.declined']);
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 10_000, pending: 0 });
    expect(await s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({ status: 'active' });
    expect(await authorizeToken(s, presented)).toMatchObject({ status: 'pending' });
  });

  it('declines token_revoked after a revocation and token_expired once the challenge expires', async () => {
    const s = new Scenario();
    const first = await mintedToken(s);
    const revoked = await s.ok('POST', `/payment-tokens/${first.token.id}/revoke`);
    expect(revoked).toMatchObject({ status: 'revoked', revokedAt: '2026-11-23T12:00:00.000Z', mppCredential: null });
    expect(await authorizeToken(s, first.presented)).toMatchObject({ declinedReason: 'token_revoked' });
    const again = await s.call('POST', `/payment-tokens/${first.token.id}/revoke`);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');

    const second = await mintedToken(s);
    await s.settle();
    await s.advance(600);
    const [expired] = await s.expectEvents(['payment_token.expired']);
    expect(expired?.data).toMatchObject({ paymentTokenId: second.token.id, previousStatus: 'active' });
    expect(await authorizeToken(s, second.presented)).toMatchObject({ declinedReason: 'token_expired' });
  });

  it('answers 404 for a token number of another organization, or a token of another mode, and changes nothing', async () => {
    const owner = new Scenario();
    const { token, presented } = await mintedToken(owner);
    const stranger = new Scenario({ sharing: owner });
    await stranger.setup();
    const answer = await stranger.call('POST', '/simulate/authorize', {
      token: presented,
      amount: 2500,
      currency: 'usd',
      merchant: MERCHANT,
    });
    expect(answer).toEqual({ status: 404, body: { error: 'not_found' } });
    expect((await stranger.call('GET', `/payment-tokens/${token.id}`)).status).toBe(404);
    expect(await stranger.ok('GET', '/transactions')).toMatchObject({ data: [] });
    // The owner's own live key sees nothing of test mode.
    const live = await owner.ok('POST', '/api-keys', { name: 'live', mode: 'live' });
    const liveRead = await owner.mock.handle(
      new Request(`http://127.0.0.1:4010/v1/payment-tokens/${token.id}`, { headers: { Authorization: `Bearer ${live.key}` } }),
    );
    expect(liveRead.status).toBe(404);
    expect(await owner.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({ status: 'active', transactionId: null });
  });
});

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The cryptogram with its first character changed (still 28 base64 characters). */
function flip(cryptogram: string): string {
  return (cryptogram[0] === 'A' ? 'B' : 'A') + cryptogram.slice(1);
}

// Token requests a Client Enabler must refuse: each is a 400 that names what is wrong, and nothing is minted,
// declared, charged or sent (the card's tokens, the organization's intents, transactions, events and balance are
// read before and after).
import { beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from '../engine/support/http-scenario.js';
import { b64json, cardChallenge, type MerchantKey, merchantKey } from './mpp-merchant.js';

let key: MerchantKey;
let small: MerchantKey;
beforeAll(async () => {
  [key, small] = await Promise.all([merchantKey(), merchantKey('enc-small', 1024)]);
});

/** Everything a token request could change, as the API shows it. */
async function stateOf(s: Scenario, cardId: string, customerId: string) {
  return JSON.stringify(
    await Promise.all([
      s.ok('GET', `/cards/${cardId}/payment-tokens`),
      s.ok('GET', '/intents'),
      s.ok('GET', '/transactions'),
      s.ok('GET', '/events?limit=100'),
      s.ok('GET', `/customers/${customerId}/balances`),
      s.ok('GET', `/cards/${cardId}`),
    ]),
  );
}

/** Sends the body and expects a 400 with `code` (and, for an invalid payment request, the parameter at fault). */
async function expectRefused(body: unknown, code: string, details: Record<string, unknown> = {}, setup = {}) {
  const s = new Scenario();
  const { card, customer } = await s.setup({ balance: 10_000, ...setup });
  const before = await stateOf(s, card.id, customer.id);
  const answer = await s.call('POST', `/cards/${card.id}/payment-tokens`, body);
  expect(answer.status).toBe(400);
  expect(answer.body.error).toMatchObject({ code, details: expect.objectContaining(details) });
  expect(answer.body.error.message.length).toBeGreaterThan(10);
  expect(await stateOf(s, card.id, customer.id)).toBe(before);
  return answer.body.error;
}

const mpp = (challenge: string) => ({ mpp: { challenge } });
const FIELD = '/body/mpp/challenge';

describe('a malformed WWW-Authenticate value is 400 invalid_payment_request naming what is wrong', () => {
  it.each([
    ['an unterminated quoted string', () => 'Payment id="abc, realm="x"', ''],
    ['a parameter without a value', () => 'Payment id=, realm="x"', ''],
    ['a parameter given twice', () => `${cardChallenge(key)}, id="again"`, ''],
    ['no Payment challenge', () => 'Bearer realm="api", Basic realm="x"', ''],
    ['no card method', () => cardChallenge(key).replace('method="card"', 'method="tempo"'), 'method'],
    ['another intent', () => cardChallenge(key).replace('intent="charge"', 'intent="session"'), 'intent'],
    ['no id', () => cardChallenge(key).replace(/id="[^"]*", /, ''), 'id'],
    ['an empty id', () => cardChallenge(key).replace(/id="[^"]*"/, 'id=""'), 'id'],
    ['no realm', () => cardChallenge(key).replace(/realm="[^"]*", /, ''), 'realm'],
    ['a request that is not base64url', () => cardChallenge(key).replace(/request="[^"]*"/, 'request="not base64!"'), 'request'],
    [
      'a request that is not JSON',
      () => cardChallenge(key).replace(/request="[^"]*"/, `request="${Buffer.from('{').toString('base64url')}"`),
      'request',
    ],
    ['an expiry that is not RFC 3339', () => cardChallenge(key, { expires: 'tomorrow' }), 'expires'],
    ['an amount in major units', () => cardChallenge(key, { amount: '25.00' }), 'request.amount'],
    ['an amount as a number', () => cardChallenge(key, { amount: 2500 }), 'request.amount'],
    ['an uppercase currency', () => cardChallenge(key, { currency: 'USD' }), 'request.currency'],
    [
      'networks without Visa',
      () => cardChallenge(key, { acceptedNetworks: ['mastercard'] }),
      'request.methodDetails.acceptedNetworks',
    ],
  ])('%s', async (_name, challenge, parameter) => {
    const error = await expectRefused(mpp(challenge()), 'invalid_payment_request', { field: FIELD, parameter });
    if (parameter) expect(error.message.startsWith(`${parameter}: `)).toBe(true);
  });

  it('names the character where the grammar breaks', async () => {
    const error = await expectRefused(mpp('Payment id="abc" realm="x"'), 'invalid_payment_request', { field: FIELD });
    expect(error.details.reason).toContain('at character 18');
  });
});

describe("the merchant's key is checked and never fetched", () => {
  const jwk = (change: Record<string, unknown>) => ({ ...key.publicJwk, ...change });
  it.each([
    ['an EC key', () => ({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', kid: 'k', use: 'enc', alg: 'RSA-OAEP-256' }), 'kty'],
    ['RSA1_5', () => jwk({ alg: 'RSA1_5' }), 'alg'],
    ['a signing key', () => jwk({ use: 'sig' }), 'use'],
    ['no kid', () => jwk({ kid: undefined }), 'kid'],
    ['a 1024-bit modulus', () => small.publicJwk, 'n'],
    ['a modulus that is not base64url', () => jwk({ n: '0vx7agoebGcQSuu...' }), 'n'],
    ['another exponent', () => jwk({ e: 'Aw' }), 'e'],
    ['private key material', () => jwk({ d: 'AQAB' }), 'd'],
    ['a key URL (jku)', () => jwk({ jku: 'https://keys.example.com/jwks.json' }), 'jku'],
    ['a certificate URL (x5u)', () => jwk({ x5u: 'https://keys.example.com/cert.pem' }), 'x5u'],
  ])('refuses %s', async (_name, make, member) => {
    const parameter = `request.methodDetails.encryptionJwk.${member}`;
    await expectRefused(mpp(cardChallenge(key, { encryptionJwk: make() })), 'invalid_payment_request', { parameter });
  });

  it('refuses a challenge that names its key by URL (jwksUri) instead of carrying it', async () => {
    const challenge = cardChallenge(key, { methodDetails: { jwksUri: 'https://gpu.example.com/.well-known/jwks.json' } });
    const error = await expectRefused(mpp(challenge), 'invalid_payment_request', { parameter: 'request.methodDetails.jwksUri' });
    expect(error.message).toContain('never fetched');
  });

  it('refuses a 1024-bit key before jose would (its own check, a second line)', async () => {
    const error = await expectRefused(mpp(cardChallenge(small)), 'invalid_payment_request');
    expect(error.details.reason).toBe('is a 1024-bit modulus; at least 2048 bits are required');
  });
});

describe('challenges and allowances the card cannot take', () => {
  it('refuses an expired challenge before anything is minted', async () => {
    const error = await expectRefused(mpp(cardChallenge(key, { expires: '2026-11-23T11:59:59Z' })), 'payment_request_expired', {
      field: FIELD,
      expiresAt: '2026-11-23T11:59:59.000Z',
    });
    expect(error.message).toContain('ask the merchant for a new one');
  });

  it('refuses a challenge in a currency the card cannot spend', async () => {
    await expectRefused(mpp(cardChallenge(key, { currency: 'eur' })), 'currency_not_supported', {
      currency: 'eur',
      cardCurrency: 'usd',
    });
  });

  const allowance = { reason: 'one_time', currency: 'usd', checkout_session_id: 'cs_1', merchant_id: 'merch_1' };
  const acp = (change: Record<string, unknown>) => ({
    acp: { allowance: { ...allowance, max_amount: 2000, expires_at: '2026-11-23T13:00:00Z', ...change }, merchantName: 'Store' },
  });

  it.each([
    ['max_amount in major units (decimals)', { max_amount: 20.5 }, '/body/acp/allowance/max_amount'],
    ['max_amount as a string', { max_amount: '2000' }, '/body/acp/allowance/max_amount'],
    ['an uppercase currency', { currency: 'USD' }, '/body/acp/allowance/currency'],
    ['a reason other than one_time', { reason: 'recurring' }, '/body/acp/allowance/reason'],
  ])('refuses an ACP allowance with %s (400 invalid_request naming the field)', async (_name, change, field) => {
    await expectRefused(acp(change), 'invalid_request', { field });
  });

  it('refuses an expired ACP allowance and one in another currency', async () => {
    await expectRefused(acp({ expires_at: '2026-11-23T11:00:00Z' }), 'payment_request_expired', {
      field: '/body/acp/allowance/expires_at',
    });
    await expectRefused(acp({ currency: 'gbp' }), 'currency_not_supported', { currency: 'gbp' });
  });

  it('refuses a body with both protocols, or neither', async () => {
    const both = await expectRefused({ ...mpp(cardChallenge(key)), ...acp({}) }, 'invalid_request', { field: '/body' });
    expect(both.details.reason).toContain('exactly one');
    await expectRefused({ mcc: '5734' }, 'invalid_request', { field: '/body/mpp', reason: 'is required' });
  });

  it('refuses a frozen card, and a request of another request body size than the schema allows', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    await s.ok('POST', `/cards/${card.id}/freeze`);
    const frozen = await s.call('POST', `/cards/${card.id}/payment-tokens`, mpp(cardChallenge(key)));
    expect(frozen.body.error).toMatchObject({ code: 'card_not_active', details: { status: 'frozen' } });
    const long = await s.call('POST', `/cards/${card.id}/payment-tokens`, mpp(`Payment request="${'A'.repeat(20_000)}"`));
    expect(long.body.error).toMatchObject({ code: 'invalid_request', details: { field: '/body/mpp/challenge' } });
    expect(await s.ok('GET', `/cards/${card.id}/payment-tokens`)).toMatchObject({ data: [] });
  });

  it('answers 404 for a card of another organization', async () => {
    const other = new Scenario();
    const s = new Scenario({ sharing: other });
    const { card } = await other.setup();
    await s.setup();
    expect((await s.call('POST', `/cards/${card.id}/payment-tokens`, mpp(cardChallenge(key)))).status).toBe(404);
    expect((await s.call('GET', `/cards/${card.id}/payment-tokens`)).status).toBe(404);
  });
});

describe('the draft request field rules, one by one', () => {
  it('refuses a request whose methodDetails names both a key and a kid', async () => {
    const challenge = cardChallenge(key, { methodDetails: { kid: 'enc-2026-11' } });
    await expectRefused(mpp(challenge), 'invalid_payment_request', { parameter: 'request.methodDetails.kid' });
  });

  it('refuses a request of another version', async () => {
    const challenge = cardChallenge(key, { methodDetails: { version: 2 } });
    await expectRefused(mpp(challenge), 'invalid_payment_request', { parameter: 'request.methodDetails.version' });
  });

  it('refuses a request that is JSON but not an object', async () => {
    const challenge = cardChallenge(key).replace(/request="[^"]*"/, `request="${b64json(['amount'])}"`);
    await expectRefused(mpp(challenge), 'invalid_payment_request', { parameter: 'request' });
  });
});

// The MPP card merchant fake of `@cardrail/mock-server/merchants`, paid by the SDK's `payments.fetch`: the whole loop
// (challenge, token minted under the policy, credential decrypted with jose by the merchant, authorization through
// the mock, receipt, replay) and each fault the fake can be told to make.
import { PaymentChallengeError } from '@cardrail/sdk';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/index.js';
import { createMppCardMerchant, type MppMerchantFault } from '../../src/testkit/merchants/index.js';

const url = 'http://127.0.0.1:4020/gpu/jobs';
const mock = createMockServer();

async function setUp(fault?: MppMerchantFault) {
  const cardrail = mock.client();
  const { card } = await mock.cardholder({ client: cardrail });
  const merchant = await createMppCardMerchant({
    acquirer: cardrail,
    url,
    amount: 2500,
    merchantName: 'Example GPU Cloud',
    recipient: 'merch_gpu_1',
    ...(fault === undefined ? {} : { fault }),
  });
  const pay = () =>
    cardrail.payments.pay(url, { method: 'POST', body: '{"gpus":1}' }, { cardId: card.id, fetch: merchant.handle });
  return { cardrail, card, merchant, pay };
}

describe('the MPP card merchant fake', () => {
  it('is paid once: the token is authorized through the mock, the receipt names the transaction, a replay is cached', async () => {
    const { cardrail, card, merchant, pay } = await setUp();
    const paid = await pay();
    expect(paid.response.status).toBe(200);
    expect(paid.response.headers.get('cache-control')).toBe('private');
    const [payment] = merchant.payments;
    expect(payment?.transaction.status).toBe('pending');
    expect(paid.receipt).toMatchObject({
      challengeId: merchant.challenges[0],
      method: 'card',
      status: 'success',
      reference: payment?.transaction.id,
    });
    const transaction = await cardrail.transactions.retrieve(payment?.transaction.id ?? '');
    expect(transaction).toMatchObject({ cardId: card.id, amount: 2500, paymentTokenId: paid.paymentToken?.id });
    // The merchant decrypted a token number, never the card's number.
    const credentials = await cardrail.cards.credentials(card.id, {});
    expect(payment?.token.paymentToken).toMatch(/^411111\d{10}$/);
    expect(payment?.token.paymentToken).not.toBe(credentials.pan);

    // The same credential again: the draft's replay rule, the cached 200 and its receipt, no second authorization.
    const authorization = paid.paymentToken?.mppCredential?.authorization ?? '';
    const replay = await merchant.handle(new Request(url, { method: 'POST', headers: { Authorization: authorization } }));
    expect(replay.status).toBe(200);
    expect(replay.headers.get('payment-receipt')).toBe(paid.response.headers.get('payment-receipt'));
    expect(merchant.payments).toHaveLength(1);

    // A second authorization with the same token, at the acquirer: declined token_used.
    const again = await cardrail.simulate.authorize({
      token: { number: payment?.token.paymentToken ?? '', cryptogram: payment?.dynamicDataValue ?? '' },
      amount: 2500,
      merchant: { name: 'Example GPU Cloud', id: 'merch_gpu_1' },
    });
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used' });
  });

  it('answers a request without a credential with a 402 card challenge carrying its key, no-store', async () => {
    const { merchant } = await setUp();
    const answer = await merchant.handle(new Request(url));
    expect(answer.status).toBe(402);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('www-authenticate')).toMatch(
      /^Payment id="ch_[0-9a-f]{32}", realm="127\.0\.0\.1:4020", method="card", intent="charge", expires="[^"]+", request="[A-Za-z0-9_-]+"$/,
    );
    expect(await answer.json()).toMatchObject({ type: 'https://paymentauth.org/problems/payment-required', status: 402 });
    expect(merchant.key.publicJwk).toMatchObject({ kty: 'RSA', alg: 'RSA-OAEP-256', use: 'enc', kid: 'enc-merchant-1' });
  });

  it('refuses to live anywhere but loopback', async () => {
    const cardrail = mock.client();
    await expect(
      createMppCardMerchant({ acquirer: cardrail, url: 'https://shop.example.com/', amount: 1, merchantName: 'x' }),
    ).rejects.toThrow(/loopback/);
  });

  it('expired challenge: refused by the client before any token is minted', async () => {
    const { cardrail, card, merchant, pay } = await setUp('expired-challenge');
    await expect(pay()).rejects.toMatchObject({ name: 'PaymentChallengeError', code: 'challenge_expired' });
    expect((await cardrail.paymentTokens.list(card.id)).data).toEqual([]);
    expect(merchant.payments).toEqual([]);
  });

  it('key URL on another origin: Cardrail fetches no key and mints nothing', async () => {
    const { cardrail, card, pay } = await setUp('key-url-on-other-origin');
    const error = await pay().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentChallengeError);
    expect(error).toMatchObject({
      code: 'malformed_challenge',
      details: { apiCode: 'invalid_payment_request', parameter: 'request.methodDetails.jwksUri' },
    });
    expect((await cardrail.paymentTokens.list(card.id)).data).toEqual([]);
  });

  it('wrong kid: the merchant refuses the credential before authorizing, and the token stays unused', async () => {
    const { cardrail, merchant, pay } = await setUp('wrong-kid');
    const paid = await pay();
    expect(paid.response.status).toBe(402);
    expect(await paid.response.json()).toMatchObject({
      type: 'https://paymentauth.org/problems/verification-failed',
      detail: expect.stringMatching(/enc-rotated-away/),
    });
    expect(merchant.payments).toEqual([]);
    expect((await cardrail.paymentTokens.retrieve(paid.paymentToken?.id ?? '')).status).toBe('active');
  });

  it('replayed challenge: a second token for the same challenge is refused', async () => {
    const { pay } = await setUp('replayed-challenge');
    expect((await pay()).response.status).toBe(200);
    await expect(pay()).rejects.toMatchObject({ code: 'payment_declined', details: { apiCode: 'invalid_state' } });
  });

  it('overcharge: an authorization above the challenge amount is declined token_amount_exceeded', async () => {
    const { merchant, pay } = await setUp('overcharge');
    const paid = await pay();
    expect(paid.response.status).toBe(402);
    expect(merchant.payments[0]?.transaction).toMatchObject({ status: 'declined', declinedReason: 'token_amount_exceeded' });
  });
});

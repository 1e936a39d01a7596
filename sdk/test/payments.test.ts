// `payments.fetch`: a merchant's MPP card 402 answered with a token minted under the card's policy, the refusals
// before anything is minted, and Cardrail's refusals as typed errors. The merchant and the API are MSW handlers on
// loopback; the whole loop against the mock (a real JWE, a real authorization) is in mock-server's tests.
import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Cardrail, PaymentChallengeError } from '../src/index.js';
import { readCardChallenge } from '../src/payments/card-challenge.js';
import { readPaymentReceipt } from '../src/payments/payment-receipt.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();
const baseUrl = 'http://127.0.0.1:4010/v1';
const shop = 'http://127.0.0.1:4020/gpu';
const cardrail = new Cardrail({ apiKey: 'sk_test_paymentsKey1', baseUrl, maxRetries: 0, logLevel: 'off' });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const request = {
  amount: '2500',
  currency: 'usd',
  methodDetails: { acceptedNetworks: ['visa'], merchantName: 'Example GPU Cloud', encryptionJwk: { kty: 'RSA' } },
};
const future = new Date(Date.now() + 600_000).toISOString();
const challenge = (params = `expires="${future}"`, body: unknown = request) =>
  `Payment id="ch_1", realm="127.0.0.1", method="card", intent="charge", ${params}, request="${b64(body)}"`;
const authorization = `Payment ${b64({ challenge: { id: 'ch_1' }, payload: {} })}`;
const receipt = { challengeId: 'ch_1', method: 'card', status: 'success', reference: 'txn_1', timestamp: future };

function token(overrides: Record<string, unknown> = {}) {
  return { id: 'tok_1', status: 'active', intentId: null, approvalUrl: null, mppCredential: { authorization }, ...overrides };
}

/** A merchant that asks for payment with `header` and serves whoever retries with the credential. */
function merchant(header: string) {
  const seen: { authorization: string | null; body: string }[] = [];
  server.use(
    http.post(shop, async ({ request: sent }) => {
      seen.push({ authorization: sent.headers.get('authorization'), body: await sent.text() });
      if (sent.headers.get('authorization') === authorization)
        return HttpResponse.json({ ok: true }, { headers: { 'Payment-Receipt': b64(receipt) } });
      return HttpResponse.json({ type: 'payment-required' }, { status: 402, headers: { 'WWW-Authenticate': header } });
    }),
  );
  return seen;
}

function api(answer: () => Response) {
  const minted: unknown[] = [];
  server.use(
    http.post(`${baseUrl}/cards/card_1/payment-tokens`, async ({ request: sent }) => {
      minted.push(await sent.json());
      return answer();
    }),
  );
  return minted;
}

describe('payments.fetch', () => {
  it('pays a card 402: mints a token for the challenge as received and retries once with its credential', async () => {
    const header = `Bearer realm="api", ${challenge()}`;
    const seen = merchant(header);
    const minted = api(() => HttpResponse.json(token(), { status: 201 }));
    const paid = await cardrail.payments.pay(
      shop,
      { method: 'POST', body: '{"gpus":1}' },
      { cardId: 'card_1', intentId: 'int_1' },
    );
    expect(paid.response.status).toBe(200);
    expect(minted).toEqual([{ mpp: { challenge: header }, intentId: 'int_1' }]);
    expect(seen).toEqual([
      { authorization: null, body: '{"gpus":1}' },
      { authorization, body: '{"gpus":1}' },
    ]);
    expect(paid.receipt).toEqual(receipt);
    expect(paid.challenge).toMatchObject({ id: 'ch_1', amount: 2500, currency: 'usd', merchantName: 'Example GPU Cloud' });
    expect(paid.paymentToken?.id).toBe('tok_1');
  });

  it('mints under an AP2 mandate made for the payment the challenge asks for', async () => {
    const header = challenge(`expires="${future}"`, { ...request, recipient: 'merch_7' });
    merchant(header);
    const minted = api(() => HttpResponse.json(token(), { status: 201 }));
    const asked: unknown[] = [];
    await cardrail.payments.pay(
      shop,
      { method: 'POST' },
      {
        cardId: 'card_1',
        agentMandate: async (payment) => {
          asked.push(payment);
          return 'open~~closed~';
        },
      },
    );
    expect(asked).toEqual([
      { cardId: 'card_1', amount: 2500, currency: 'usd', merchant: { name: 'Example GPU Cloud', id: 'merch_7' } },
    ]);
    expect(minted).toEqual([{ mpp: { challenge: header }, agentMandate: 'open~~closed~' }]);
  });

  it('returns any other answer as it is, a 402 of another scheme or method included, and mints nothing', async () => {
    const minted = api(() => HttpResponse.json(token(), { status: 201 }));
    merchant('Payment id="x", realm="r", method="tempo", intent="charge", request="e30"');
    expect((await cardrail.payments.fetch(shop, { method: 'POST' }, { cardId: 'card_1' })).status).toBe(402);
    server.use(http.get(shop, () => HttpResponse.text('free')));
    expect(await (await cardrail.payments.fetch(shop, undefined, { cardId: 'card_1' })).text()).toBe('free');
    expect(minted).toEqual([]);
  });

  it.each([
    ['an expired challenge', challenge('expires="2026-01-01T00:00:00Z"'), 'challenge_expired', ''],
    ['an unterminated quoted string', 'Payment id="ch_1, method="card"', 'malformed_challenge', ''],
    [
      'a request that is not JSON',
      challenge(undefined, 'x').replace(/request="[^"]+"/, 'request="bm90IGpzb24"'),
      'malformed_challenge',
      'request',
    ],
    ['a decimal amount', challenge(undefined, { ...request, amount: '25.00' }), 'malformed_challenge', 'request.amount'],
    ['an uppercase currency', challenge(undefined, { ...request, currency: 'USD' }), 'malformed_challenge', 'request.currency'],
    ['no id', challenge().replace('id="ch_1", ', ''), 'malformed_challenge', 'id'],
    ['a date that is no RFC 3339 date-time', challenge('expires="tomorrow"'), 'malformed_challenge', 'expires'],
  ])('refuses %s before anything is minted', async (_, header, code, parameter) => {
    const minted = api(() => HttpResponse.json(token(), { status: 201 }));
    const seen = merchant(header);
    const error = await cardrail.payments.fetch(shop, { method: 'POST' }, { cardId: 'card_1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentChallengeError);
    expect(error).toMatchObject({ code });
    if (code === 'malformed_challenge') expect((error as PaymentChallengeError).details?.parameter).toBe(parameter);
    expect(minted).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['payment_token_declined', 'payment_declined'],
    ['intent_required', 'payment_declined'],
    ['currency_not_supported', 'payment_declined'],
    ['invalid_payment_request', 'malformed_challenge'],
    ['payment_request_expired', 'challenge_expired'],
  ])('turns Cardrail refusing with %s into %s, and never retries the merchant', async (apiCode, code) => {
    const body = {
      error: { code: apiCode, message: `refused: ${apiCode}`, details: { declinedReason: 'merchant_not_allowed' } },
    };
    api(() => HttpResponse.json(body, { status: 400 }));
    const seen = merchant(challenge());
    const error = await cardrail.payments.fetch(shop, { method: 'POST' }, { cardId: 'card_1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PaymentChallengeError', code, details: { apiCode, challengeId: 'ch_1' } });
    expect(seen).toHaveLength(1);
  });

  it('stops at a token that waits on a person, with its approval page', async () => {
    api(() =>
      HttpResponse.json(
        token({
          status: 'pending_approval',
          intentId: 'int_9',
          approvalUrl: 'http://127.0.0.1:4010/approve/int_9',
          mppCredential: null,
        }),
        { status: 201 },
      ),
    );
    merchant(challenge());
    const error = await cardrail.payments.fetch(shop, { method: 'POST' }, { cardId: 'card_1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'approval_required',
      details: { paymentTokenId: 'tok_1', approvalUrl: 'http://127.0.0.1:4010/approve/int_9' },
    });
  });

  it('waits for the approval when asked, then pays', async () => {
    api(() => HttpResponse.json(token({ status: 'pending_approval', intentId: 'int_9', mppCredential: null }), { status: 201 }));
    server.use(
      http.get(`${baseUrl}/intents/int_9`, () => HttpResponse.json({ id: 'int_9', status: 'pending' })),
      http.get(`${baseUrl}/payment-tokens/tok_1`, () => HttpResponse.json(token())),
    );
    merchant(challenge());
    const answer = await cardrail.payments.fetch(
      shop,
      { method: 'POST' },
      { cardId: 'card_1', waitForApproval: { pollIntervalMs: 0 } },
    );
    expect(answer.status).toBe(200);
  });
});

describe("the draft's own 402 example (draft-card-charge-00, folded lines joined)", () => {
  const example = readFileSync(
    new URL('../../mock-server/test/fixtures/payment-protocols/mpp-card-draft/card-19-L893-910.http', import.meta.url),
    'utf8',
  );
  // Header folding: a line break and its indentation continue the value (inside the quoted request too).
  const folded = example.split('WWW-Authenticate: ')[1]?.split('\nCache-Control')[0] ?? '';
  const header = folded.replace(/(,|^Payment)\n\s+/g, '$1 ').replace(/\n\s+/g, '');

  it('reads it as the draft decodes it', () => {
    expect(readCardChallenge(header, Date.parse('2026-02-19T12:00:00Z'))).toEqual({
      id: 'ch_9xK2mR4vB7nQ',
      realm: 'api.merchant.com',
      expires: '2026-02-19T12:10:00Z',
      amount: 4999,
      currency: 'usd',
      merchantName: 'Acme Corp',
      recipient: 'merch_abc123',
      description: 'Pro plan — monthly subscription',
    });
  });

  it('refuses it today: it expired on 2026-02-19', () => {
    expect(() => readCardChallenge(header)).toThrow(expect.objectContaining({ code: 'challenge_expired' }));
  });
});

describe("the draft's own receipt example (draft-card-charge-00)", () => {
  const draft = new URL('../../mock-server/test/fixtures/payment-protocols/mpp-card-draft/', import.meta.url);
  const example = readFileSync(new URL('card-24-L1005-1012.http', draft), 'utf8');
  const decoded = JSON.parse(readFileSync(new URL('card-26-L1024-1031.json', draft), 'utf8'));

  it('decodes its Payment-Receipt exactly as the draft decodes it', () => {
    const folded = example.split('Payment-Receipt: ')[1]?.split('\nCache-Control')[0] ?? '';
    const headers = new Headers({ 'Payment-Receipt': folded.replace(/\n\s+/g, '') });
    expect(readPaymentReceipt(headers)).toEqual(decoded);
  });

  it('answers null for a receipt that is not one', () => {
    expect(readPaymentReceipt(new Headers({ 'Payment-Receipt': 'bm90IGpzb24' }))).toBeNull();
    expect(readPaymentReceipt(new Headers({ 'Payment-Receipt': b64({ challengeId: 'ch_1' }) }))).toBeNull();
    expect(readPaymentReceipt(new Headers())).toBeNull();
  });
});

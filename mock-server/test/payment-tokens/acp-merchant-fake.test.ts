// The ACP merchant fake of `@cardrail/mock-server/merchants` (a seller's checkout and its PSP's delegate_payment
// vault, ACP 2026-04-17), paid with a token and the SDK's `delegatePaymentRequest`; the PSP's check held against
// ACP's own schema and examples (vendored under test/fixtures/payment-protocols/acp-2026-04-17).
import { readFileSync } from 'node:fs';
import { delegatePaymentRequest } from '@cardrail/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../../src/index.js';
import { checkDelegatePaymentRequest } from '../../src/testkit/merchants/acp-request-check.js';
import { type AcpCheckoutSession, type AcpMerchantFault, createAcpMerchant } from '../../src/testkit/merchants/index.js';

const fixtures = new URL('../fixtures/payment-protocols/acp-2026-04-17/', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('schema.delegate_payment.json', fixtures), 'utf8'));
const examples = JSON.parse(readFileSync(new URL('examples.delegate_payment.json', fixtures), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
ajv.addSchema(schema);
const validRequest = ajv.compile({ $ref: `${schema.$id}#/$defs/DelegatePaymentRequest` });
const validError = ajv.compile({ $ref: `${schema.$id}#/$defs/Error` });
const validResponse = ajv.compile({ $ref: `${schema.$id}#/$defs/DelegatePaymentResponse` });

const sellerUrl = 'http://127.0.0.1:4030';
const pspUrl = 'http://127.0.0.1:4031';
const mock = createMockServer();

async function setUp(fault?: AcpMerchantFault) {
  const cardrail = mock.client();
  const { card } = await mock.cardholder({ client: cardrail });
  const merchant = createAcpMerchant({
    acquirer: cardrail,
    sellerUrl,
    pspUrl,
    merchantName: 'Acme Store',
    merchantId: 'acme_store',
    amount: 4300,
    ...(fault === undefined ? {} : { fault }),
  });
  const send = (url: string, init: RequestInit = {}) => merchant.handle(new Request(url, init));
  const session = (await (
    await send(`${sellerUrl}/checkout_sessions`, { method: 'POST', body: '{}' })
  ).json()) as AcpCheckoutSession;
  const { clock } = cardrail.simulate;
  const now = Date.parse((await clock.retrieve()).now);
  const token = await cardrail.paymentTokens.create(card.id, {
    acp: {
      allowance: {
        reason: 'one_time',
        max_amount: 4300,
        currency: 'usd',
        checkout_session_id: session.id,
        merchant_id: 'acme_store',
        expires_at: new Date(now + 900_000).toISOString(),
      },
      merchantName: 'Acme Store',
    },
  });
  const delegate = (body: unknown, key = 'idem-1', headers: Record<string, string> = {}) =>
    send(`${pspUrl}/agentic_commerce/delegate_payment`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer psp_test_key',
        'Content-Type': 'application/json',
        'API-Version': '2026-04-17',
        'Idempotency-Key': key,
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const complete = (vaultToken: string) =>
    send(`${sellerUrl}/checkout_sessions/${session.id}/complete`, {
      method: 'POST',
      body: JSON.stringify({
        payment_data: {
          handler_id: 'card_tokenized',
          instrument: { type: 'card', credential: { type: 'spt', token: vaultToken } },
        },
      }),
    });
  return { cardrail, card, merchant, session, token, delegate, complete };
}

describe('the ACP merchant fake', () => {
  it('vaults the token, completes the checkout once, and a second use of the token is declined token_used', async () => {
    const { cardrail, card, merchant, session, token, delegate, complete } = await setUp();
    const body = delegatePaymentRequest(token);
    expect(validRequest(body)).toBe(true);
    const vaulted = await delegate(body);
    expect(vaulted.status).toBe(201);
    const answer = await vaulted.json();
    expect(validResponse(answer)).toBe(true);
    expect(answer).toMatchObject({
      id: expect.stringMatching(/^vt_/),
      metadata: { merchant_id: 'acme_store', idempotency_key: 'idem-1' },
    });

    const completed = (await (await complete(answer.id)).json()) as AcpCheckoutSession;
    expect(completed).toMatchObject({ id: session.id, status: 'completed', order: { checkout_session_id: session.id } });
    const transactionId = merchant.payments[0]?.transaction.id ?? '';
    expect(await cardrail.transactions.retrieve(transactionId)).toMatchObject({
      cardId: card.id,
      amount: 4300,
      paymentTokenId: token.id,
    });
    // The vault holds the network token, never the card's number.
    const { pan } = await cardrail.cards.credentials(card.id, {});
    expect(JSON.stringify([...merchant.vault.values()])).not.toContain(pan);

    const again = await cardrail.simulate.authorize({
      token: { number: token.networkToken?.number ?? '', cryptogram: token.networkToken?.cryptogram ?? '' },
      amount: 100,
      merchant: { name: 'Acme Store', id: 'acme_store' },
    });
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used' });
  });

  it("keeps ACP's idempotency: an equal body replays the answer, a different body is 422 idempotency_conflict", async () => {
    const { token, delegate, merchant } = await setUp();
    const body = delegatePaymentRequest(token);
    const first = await (await delegate(body)).json();
    const replay = await delegate({ ...body, metadata: { ...body.metadata } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(first);
    expect(merchant.vault.size).toBe(1);
    const conflict = await delegate({ ...body, metadata: { other: 'x' } });
    expect(conflict.status).toBe(422);
    const error = await conflict.json();
    expect(validError(error)).toBe(true);
    expect(error).toEqual(examples.delegate_payment_error_idempotency_conflict);
    const missing = await delegate(body, '');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(examples.delegate_payment_error_idempotency_key_required);
  });

  it('refuses a body the schema refuses, with its error envelope and the JSONPath of the field', async () => {
    const { token, delegate } = await setUp();
    const body = delegatePaymentRequest(token);
    const decimal = await delegate({ ...body, allowance: { ...body.allowance, max_amount: 43.0001 } }, 'idem-2');
    expect(decimal.status).toBe(400);
    const error = await decimal.json();
    expect(validError(error)).toBe(true);
    expect(error).toMatchObject({ type: 'invalid_request', code: 'invalid_card', param: '$.allowance.max_amount' });
    const version = await delegate(body, 'idem-3', { 'API-Version': '2025-09-29' });
    expect(await version.json()).toMatchObject({ code: 'unsupported_api_version', supported_versions: ['2026-04-17'] });
  });

  it('allowance exceeded: the seller charging more than max_amount is declined token_amount_exceeded', async () => {
    const { token, delegate, complete, merchant } = await setUp('allowance-exceeded');
    const { id } = await (await delegate(delegatePaymentRequest(token))).json();
    const session = (await (await complete(id)).json()) as AcpCheckoutSession;
    expect(session).toMatchObject({ status: 'ready_for_payment', messages: [{ type: 'error', code: 'payment_declined' }] });
    expect(merchant.payments[0]?.transaction).toMatchObject({ status: 'declined', declinedReason: 'token_amount_exceeded' });
  });

  it("agrees with ACP's schema on ACP's own example and on broken copies of it", () => {
    const example = examples.delegate_payment_request;
    expect(validRequest(example)).toBe(true);
    expect(checkDelegatePaymentRequest(example)).toBeNull();
    const broken = [
      { ...example, extra: 1 },
      { ...example, allowance: { ...example.allowance, currency: 'USD' } },
      { ...example, allowance: { ...example.allowance, max_amount: 20.5 } },
      { ...example, payment_method: { ...example.payment_method, display_last4: '42' } },
      { ...example, payment_method: { ...example.payment_method, card_number_type: 'dpan' } },
      { ...example, risk_signals: [{ type: 'card_testing', score: 1 }] },
      { ...example, metadata: { n: 1 } },
      { ...example, billing_address: { ...example.billing_address, country: 'USA' } },
      (({ allowance: _, ...rest }) => rest)(example),
    ];
    for (const body of broken) {
      expect(validRequest(body)).toBe(false);
      expect(checkDelegatePaymentRequest(body)).not.toBeNull();
    }
  });
});

// Golden tests from the protocols' own examples, vendored verbatim under test/fixtures/payment-protocols (with their
// licences): the MPP card draft's 402 challenge, decoded request, credential, JWE header and plaintext (shapes only:
// the draft's key and ciphertext are placeholders), and ACP 2026-04-17's delegate_payment example and JSON Schema.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from '../engine/support/http-scenario.js';
import { b64json, type MerchantKey, merchantKey, openCredential } from './mpp-merchant.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/payment-protocols/${path}`, import.meta.url), 'utf8');
const json = (path: string) => JSON.parse(fixture(path));

/**
 * The draft's `WWW-Authenticate` value as a client reads it: the folded header lines joined (RFC 9112 obs-fold), and
 * the whitespace the draft's line wrapping put inside the quoted `request` taken out.
 */
function draftChallenge(): string {
  const lines = fixture('mpp-card-draft/card-19-L893-910.http').split('\n');
  const start = lines.findIndex((line) => line.startsWith('WWW-Authenticate:'));
  const folded: string[] = [lines[start]?.slice('WWW-Authenticate:'.length).trim() ?? ''];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s/.test(line)) break;
    folded.push(line.trim());
  }
  return folded.join(' ').replace(/request="([^"]*)"/, (_m, value: string) => `request="${value.replace(/\s+/g, '')}"`);
}

const DRAFT_OPEN = '2026-02-19T12:05:00.000Z';
let key: MerchantKey;
beforeAll(async () => {
  key = await merchantKey('enc-2026-01');
});

async function fundedCard(s: Scenario) {
  const { card } = await s.setup({ balance: 100_000 });
  return card;
}

describe("the MPP card draft's own examples", () => {
  it("decodes the 402's request to the draft's decoded request", () => {
    const request = /request="([^"]+)"/.exec(draftChallenge())?.[1] ?? '';
    expect(JSON.parse(Buffer.from(request, 'base64url').toString('utf8'))).toEqual(json('mpp-card-draft/card-21-L925-944.json'));
  });

  it("refuses the draft's challenge as it stands: its key is a placeholder (every field before it is read and accepted)", async () => {
    const s = new Scenario({ frozenClock: DRAFT_OPEN });
    const card = await fundedCard(s);
    const answer = await s.call('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge: draftChallenge() } });
    expect(answer.body.error).toMatchObject({
      code: 'invalid_payment_request',
      details: { parameter: 'request.methodDetails.encryptionJwk.n', reason: 'must be base64url (no padding)' },
    });
  });

  it("refuses the draft's challenge once it expired, before its key is even looked at", async () => {
    const s = new Scenario();
    const card = await fundedCard(s);
    const answer = await s.call('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge: draftChallenge() } });
    expect(answer.body.error).toMatchObject({
      code: 'payment_request_expired',
      details: { expiresAt: '2026-02-19T12:10:00.000Z' },
    });
  });

  it("answers the draft's challenge with a real key in the credential shape the draft shows", async () => {
    const s = new Scenario({ frozenClock: DRAFT_OPEN });
    const card = await fundedCard(s);
    // The draft's request, field for field and in its order, with a key that exists.
    const decoded = json('mpp-card-draft/card-21-L925-944.json');
    decoded.methodDetails.encryptionJwk = key.publicJwk;
    const challenge = draftChallenge().replace(/request="[^"]*"/, `request="${b64json(decoded)}"`);
    const token = await s.ok('POST', `/cards/${card.id}/payment-tokens`, { mpp: { challenge } });
    expect(token).toMatchObject({
      status: 'active',
      merchant: { name: 'Acme Corp', id: 'merch_abc123' },
      maxAmount: 4999,
      currency: 'usd',
      challengeId: 'ch_9xK2mR4vB7nQ',
      expiresAt: '2026-02-19T12:10:00.000Z',
    });

    const draft = json('mpp-card-draft/card-23-L977-999.json');
    const opened = await openCredential(token.mppCredential.authorization, key);
    expect(Object.keys(opened.challenge)).toEqual(Object.keys(draft.challenge));
    expect(opened.challenge).toMatchObject({ ...draft.challenge, request: b64json(decoded) });
    // The draft's payload less its two optional fields (a billing address, the cardholder's name), in its order.
    const optional = ['billingAddress', 'cardholderFullName'];
    expect(Object.keys(opened.payload)).toEqual(Object.keys(draft.payload).filter((name) => !optional.includes(name)));
    expect(opened.payload.network).toBe(draft.payload.network);

    const header = JSON.parse(fixture('mpp-card-draft/card-07-L431-431.json'));
    expect(opened.protectedHeader).toEqual(header);
    const plaintext = json('mpp-card-draft/card-08-L445-457.json');
    expect(shape(opened.plaintext)).toEqual(shape(plaintext));
    expect(opened.plaintext.dynamicData.dynamicDataType).toBe(plaintext.dynamicData.dynamicDataType);
    expect(opened.plaintext.token.eci).toBe(plaintext.token.eci);
  });
});

describe("ACP 2026-04-17's own example and schema", () => {
  const example = json('acp-2026-04-17/examples.delegate_payment.json').delegate_payment_request;
  const schema = json('acp-2026-04-17/schema.delegate_payment.json');

  it("takes the example's allowance as it is, and the token fills a delegate_payment request ACP's schema accepts", async () => {
    const s = new Scenario({ frozenClock: '2025-10-09T07:00:00.000Z' });
    const card = await fundedCard(s);
    const token = await s.ok('POST', `/cards/${card.id}/payment-tokens`, {
      acp: { allowance: example.allowance, merchantName: 'Acme Store' },
    });
    expect(token).toMatchObject({
      protocol: 'acp',
      status: 'active',
      merchant: { name: 'Acme Store', id: example.allowance.merchant_id },
      maxAmount: example.allowance.max_amount,
      currency: example.allowance.currency,
      checkoutSessionId: example.allowance.checkout_session_id,
      expiresAt: '2025-10-09T07:20:50.520Z',
      mppCredential: null,
    });
    const network = token.networkToken;
    const request = {
      ...example,
      payment_method: {
        type: 'card',
        card_number_type: 'network_token',
        virtual: true,
        number: network.number,
        exp_month: network.expMonth,
        exp_year: network.expYear,
        cryptogram: network.cryptogram,
        eci_value: network.eci,
        iin: network.number.slice(0, 6),
        display_card_funding_type: 'prepaid',
        display_brand: 'visa',
        display_last4: token.panLastFour,
        metadata: { cardrail_payment_token: token.id },
      },
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(schema);
    const validate = ajv.getSchema(`${schema.$id}#/$defs/DelegatePaymentRequest`);
    expect(validate?.(request), JSON.stringify(validate?.errors)).toBe(true);

    // The PSP authorizes the token at the allowance's merchant.
    const txn = await s.ok('POST', '/simulate/authorize', {
      token: { number: network.number, cryptogram: network.cryptogram },
      amount: 1999,
      currency: 'usd',
      merchant: { name: 'Acme', id: example.allowance.merchant_id },
    });
    expect(txn).toMatchObject({ status: 'pending', paymentTokenId: token.id, amount: 1999 });
  });

  it("refuses the example's allowance once it expired", async () => {
    const s = new Scenario();
    const card = await fundedCard(s);
    const answer = await s.call('POST', `/cards/${card.id}/payment-tokens`, {
      acp: { allowance: example.allowance, merchantName: 'Acme Store' },
    });
    expect(answer.body.error).toMatchObject({
      code: 'payment_request_expired',
      details: { expiresAt: '2025-10-09T07:20:50.520Z' },
    });
  });
});

/** The keys of an object at every level, with the JSON type of each leaf. */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, shape(item)]));
}

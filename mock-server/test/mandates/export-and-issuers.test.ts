// An intent exported as AP2 open payment mandate claims (valid under AP2 v0.2's own JSON Schema, vendored), and the
// trusted mandate issuers of a customer or user.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createMandateAgent } from '../../src/index.js';
import { openMandateHash } from '../../src/engine/mandates/mandate-hash.js';
import { Scenario } from '../engine/support/http-scenario.js';
import { ap2World } from './ap2-world.js';

const AP2 = new URL('../../../spec/ap2/', import.meta.url);
const schema = (path: string) => JSON.parse(readFileSync(new URL(path, AP2), 'utf8'));

function ap2Validator(file: string) {
  // strict: false for AP2's own `x-selectively-disclosable-array` keyword.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const type of ['amount', 'item', 'jwk', 'merchant', 'payment_instrument', 'pisp'])
    ajv.addSchema(schema(`types/${type}.json`));
  // Registered under the id payment_receipt.json refers to (the file declares another, README.md).
  ajv.addSchema({ ...schema('types/receipt_status.json'), $id: 'https://ap2-protocol.org/schemas/types/receipt_status.json' });
  return ajv.compile(schema(file));
}

describe('POST /intents/{intentId}/mandate', () => {
  it('exports claims valid under AP2 open_payment_mandate.json, hashed as JCS + SHA-256', async () => {
    const w = await ap2World({ card: { policy: { limits: { perAuth: 2600 } } } });
    const validate = ap2Validator('open_payment_mandate.json');
    expect(validate(w.exported.claims), JSON.stringify(validate.errors)).toBe(true);
    expect(w.exported.openMandateHash).toBe(await openMandateHash(w.exported.claims));
    const byType = Object.fromEntries(w.exported.claims.constraints.map((c) => [c.type, c]));
    // 2500 +- max(10 %, 500): 2000 to 3000, capped by the card's per-authorization limit.
    expect(byType['payment.amount_range']).toEqual({ type: 'payment.amount_range', currency: 'USD', min: 2000, max: 2600 });
    // The budget is in major units: 26 dollars, not 2600.
    expect(byType['payment.budget']).toEqual({ type: 'payment.budget', currency: 'USD', max: 26 });
    expect(byType['payment.reference']).toEqual({
      type: 'payment.reference',
      conditional_transaction_id: `cardrail:${w.intent.id}`,
    });
    expect(byType['payment.allowed_payment_instruments']).toMatchObject({ allowed: [{ id: w.card.id, type: 'card' }] });
    expect(w.exported.claims.cnf).toEqual({ jwk: w.agent.publicJwk });
  });

  it('the budget follows the currency exponent (JPY has none)', async () => {
    const w = await ap2World();
    const intent = await w.s.ok('POST', '/intents', { cardId: w.card.id, summary: 'x', expectedAmount: 5000, currency: 'jpy' });
    const { claims } = await w.s.ok('POST', `/intents/${intent.id}/mandate`, { agentKey: w.agent.publicJwk });
    const budget = claims.constraints.find((c: { type: string }) => c.type === 'payment.budget');
    expect(budget).toEqual({ type: 'payment.budget', currency: 'JPY', max: 5500 });
  });

  it('refuses an agent key with private material, and an intent past its expiry, changing nothing', async () => {
    const w = await ap2World();
    const leaked = await w.s.call('POST', `/intents/${w.intent.id}/mandate`, { agentKey: { ...w.agent.publicJwk, d: 'secret' } });
    expect(leaked.status).toBe(400);
    expect(leaked.body.error.message).toMatch(/private key material \(d\)/);
    await w.s.advance(3700); // past the intent's 60 minutes
    const rejected = await w.s.call('POST', `/intents/${w.intent.id}/mandate`, { agentKey: w.agent.publicJwk });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error.code).toBe('invalid_state');
  });
});

describe('trusted mandate issuers', () => {
  it('are set and read per customer, and per user in the user variant', async () => {
    const s = new Scenario();
    const { customer } = await s.setup();
    const { publicJwk } = await createMandateAgent();
    const key = { ...publicJwk, kid: 'cp-1' };
    expect(await s.ok('GET', `/customers/${customer.id}/mandate-issuers`)).toEqual({
      customerId: customer.id,
      keys: [],
      updatedAt: null,
    });
    const set = await s.ok('POST', `/customers/${customer.id}/mandate-issuers`, { keys: [key] });
    expect(set).toMatchObject({ customerId: customer.id, keys: [key] });
    expect(await s.ok('GET', `/users/${customer.id}/mandate-issuers`, undefined, 'user')).toMatchObject({
      userId: customer.id,
      keys: [key],
    });
    expect((await s.call('GET', '/customers/cus_unknown/mandate-issuers')).status).toBe(404);
    const other = new Scenario({ sharing: s });
    expect((await other.call('GET', `/customers/${customer.id}/mandate-issuers`)).status).toBe(404);
  });

  it.each([
    ['private key material', { d: 'c2VjcmV0' }, /private key material \(d\)/],
    ['a certificate chain', { x5c: ['MIIB'] }, /key material elsewhere \(x5c\)/],
    ['an RSA key', { kty: 'RSA', n: 'AQAB', e: 'AQAB' }, /P-256/],
    ['no kid', { kid: undefined }, /needs a kid/],
  ])('refuse a key with %s (400), keeping the keys they had', async (_label, change, message) => {
    const s = new Scenario();
    const { customer } = await s.setup();
    const { publicJwk } = await createMandateAgent();
    const good = { ...publicJwk, kid: 'cp-1' };
    await s.ok('POST', `/customers/${customer.id}/mandate-issuers`, { keys: [good] });
    const bad = JSON.parse(JSON.stringify({ ...good, kid: 'cp-2', ...change }));
    const answer = await s.call('POST', `/customers/${customer.id}/mandate-issuers`, { keys: [good, bad] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(message);
    expect(await s.ok('GET', `/customers/${customer.id}/mandate-issuers`)).toMatchObject({ keys: [good] });
  });
});

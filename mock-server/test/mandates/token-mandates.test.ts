// A payment token minted under an AP2 mandate: verified against the token's payment at mint, refused with nothing
// minted or used up, bound to the token so that its authorization records it and meets requireMandate.
import { beforeAll, describe, expect, it } from 'vitest';
import { closedMandateFor, mandateFixtures } from '../../src/index.js';
import { openMandateHash } from '../../src/engine/mandates/mandate-hash.js';
import { cardChallenge, type MerchantKey, merchantKey, openCredential } from '../payment-tokens/mpp-merchant.js';
import { type Ap2World, ap2World, MERCHANT, NOW_SECONDS } from './ap2-world.js';

/** The seller's id at its PSP: ACP allowances name it, so the open mandate's payee does too. */
const SELLER = { name: MERCHANT.name, id: 'merch_openai' };

let key: MerchantKey;
beforeAll(async () => {
  key = await merchantKey();
});

/** A world whose open mandate allows the seller by its PSP id, as a credential provider would write it for ACP. */
async function acpWorld(options: Parameters<typeof ap2World>[0] = {}) {
  const w = await ap2World(options);
  const claims = structuredClone(w.exported.claims);
  const payees = claims.constraints.find((c) => c.type === 'payment.allowed_payees');
  if (!payees) throw new Error('the export names the intent merchant');
  payees.allowed = [SELLER];
  const openMandate = await w.provider.issue(claims);
  const hash = await openMandateHash(claims);
  const present = (p: { amount?: number; merchant?: { name: string; id?: string }; openMandate?: string } = {}) =>
    w.present({ openMandate, merchant: SELLER, ...p });
  await w.s.settle();
  return { w, claims, hash, present };
}

const allowance = (amount = 2500, session = 'cs_1') => ({
  reason: 'one_time',
  max_amount: amount,
  currency: 'usd',
  checkout_session_id: session,
  merchant_id: SELLER.id,
  expires_at: '2026-11-23T13:00:00Z',
});

function mint(w: Ap2World, extra: Record<string, unknown> = {}, amount = 2500) {
  return w.s.call('POST', `/cards/${w.card.id}/payment-tokens`, {
    acp: { allowance: allowance(amount), merchantName: SELLER.name },
    ...extra,
  });
}

function payWithToken(w: Ap2World, token: { networkToken: { number: string; cryptogram: string } }, extra = {}) {
  const { number, cryptogram } = token.networkToken;
  return w.s.ok('POST', '/simulate/authorize', {
    token: { number, cryptogram },
    amount: 2500,
    currency: 'usd',
    merchant: SELLER,
    ...extra,
  });
}

async function expectNothingMinted(w: Ap2World) {
  expect(await w.s.ok('GET', `/cards/${w.card.id}/payment-tokens`)).toMatchObject({ data: [] });
  expect(await w.s.newEvents('customer')).toEqual([]);
}

describe('minting a payment token with an AP2 mandate', () => {
  it('binds the token to the mandate; its authorization records it, meets requireMandate and names it in events', async () => {
    const { w, hash, present } = await acpWorld({ card: { policy: { requireMandate: true, requireAttestation: true } } });
    const answer = await mint(w, { agentMandate: await present() });
    expect(answer.status).toBe(201);
    const token = answer.body;
    expect(token).toMatchObject({ status: 'active', mandate: { openMandateHash: hash } });
    expect(token.mandate.reference).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const minted = (await w.s.newEvents('customer')).find((event) => event.type === 'payment_token.created');
    expect(minted?.data).toMatchObject({ paymentTokenId: token.id, openMandateHash: hash });
    await w.s.settle();

    // No presentation again: the token is bound to its mandate, as a network token is to its cryptogram.
    const txn = await payWithToken(w, token);
    expect(txn).toMatchObject({ status: 'pending', paymentTokenId: token.id, attestationStatus: 'attested' });
    expect(txn.mandate).toEqual({ openMandateHash: hash, reference: token.mandate.reference, receipt: null });
    const created = (await w.s.newEvents('customer')).find((event) => event.type === 'transaction.created');
    expect(created?.data).toMatchObject({ openMandateHash: hash, paymentTokenId: token.id });
    const settled = await w.s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    expect(settled.mandate.receipt.split('.')).toHaveLength(3);
    expect(await w.s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({ status: 'used', mandate: token.mandate });
  });

  it('answers an MPP challenge of the intent merchant with the exported mandate itself', async () => {
    const w = await ap2World({ customer: { policy: { requireMandate: true } } });
    const challenge = cardChallenge(key, { merchantName: MERCHANT.name, expires: '2026-11-23T13:00:00Z' });
    const token = await w.s.ok('POST', `/cards/${w.card.id}/payment-tokens`, {
      mpp: { challenge },
      agentMandate: await w.present(),
    });
    expect(token.mandate).toMatchObject({ openMandateHash: w.exported.openMandateHash });
    const { plaintext } = await openCredential(token.mppCredential.authorization, key);
    const txn = await w.s.ok('POST', '/simulate/authorize', {
      token: { number: plaintext.token.paymentToken, cryptogram: plaintext.dynamicData.dynamicDataValue },
      amount: 2500,
      merchant: { name: MERCHANT.name },
    });
    expect(txn).toMatchObject({ status: 'pending', mandate: { openMandateHash: w.exported.openMandateHash } });
  });

  it('pays a merchant known by an id at its acquirer with the mandate of an intent that names it by name', async () => {
    // An intent knows its merchant by name; AP2 requires a payee id, so the export gives the name as the id too. The
    // challenge's recipient is the merchant's id at its acquirer: that payee is matched by name.
    const w = await ap2World({ customer: { policy: { requireMandate: true } } });
    const acquirerId = 'merch_7Hq2Lx9Wd4';
    const mintFor = async (merchantName: string) =>
      w.s.call('POST', `/cards/${w.card.id}/payment-tokens`, {
        mpp: { challenge: cardChallenge(key, { merchantName, recipient: acquirerId, expires: '2026-11-23T13:00:00Z' }) },
        agentMandate: await w.present({ merchant: { name: merchantName, id: acquirerId } }),
      });
    // Another merchant's name with the same id is not the payee the intent named.
    const refused = await mintFor('Another Shop');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ declinedReason: 'mandate_rejected' });
    expect(refused.body.error.details.reasons[0].message).toMatch(
      /^payment\.allowed_payees: Another Shop is not an allowed payee/,
    );
    const minted = await mintFor(MERCHANT.name);
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({
      merchant: { name: MERCHANT.name, id: acquirerId },
      mandate: { openMandateHash: w.exported.openMandateHash },
    });
  });

  it.each([
    ['a closed mandate for less than the allowance', { amount: 2000 }, /^payment_amount: .*2500 USD/],
    ['a closed mandate for another payee', { merchant: { name: 'Anthropic', id: 'merch_anthropic' } }, /^payee: /],
  ])('refuses %s: 400 payment_token_declined mandate_rejected, nothing minted', async (_name, change, message) => {
    const { w, present } = await acpWorld();
    const answer = await mint(w, { agentMandate: await present(change) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'payment_token_declined', details: { declinedReason: 'mandate_rejected' } });
    expect(answer.body.error.details.reasons[0].message).toMatch(message);
    await expectNothingMinted(w);
  });

  it('refuses an allowance above what the open mandate allows (its amount range), even with a matching closed mandate', async () => {
    const { w, present } = await acpWorld();
    const answer = await mint(w, { agentMandate: await present({ amount: 9000 }) }, 9000);
    expect(answer.body.error.details).toMatchObject({ declinedReason: 'mandate_rejected' });
    expect(answer.body.error.details.reasons[0].message).toMatch(/^payment\.amount_range: 9000 is above/);
    await expectNothingMinted(w);
  });

  it('refuses a tampered mandate (mandate_unverifiable): no token, no event, and the valid one still mints', async () => {
    const { w, claims, present } = await acpWorld();
    const closed = closedMandateFor({ amount: 2500, currency: 'usd', merchant: SELLER, cardId: w.card.id });
    const fixtures = await mandateFixtures({
      provider: w.provider,
      agent: w.agent,
      claims,
      closed,
      aud: `urn:cardrail:card:${w.card.id}`,
      now: NOW_SECONDS,
    });
    for (const name of ['altered', 'wrongAudience', 'unknownKey'] as const) {
      const answer = await mint(w, { agentMandate: fixtures[name].presentation });
      expect(answer.body.error, name).toMatchObject({
        code: 'payment_token_declined',
        details: { declinedReason: 'mandate_unverifiable' },
      });
    }
    await expectNothingMinted(w);
    expect((await mint(w, { agentMandate: await present() })).status).toBe(201);
  });

  it('refuses a token without a mandate where the policy requires one, as an authorization is declined', async () => {
    const { w } = await acpWorld({ customer: { policy: { requireMandate: true } } });
    const answer = await mint(w);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'payment_token_declined',
      details: { declinedReason: 'mandate_required', reasons: [{ code: 'mandate_required' }] },
    });
    await expectNothingMinted(w);
  });

  it('uses the presentation up: it cannot mint again nor pay by card', async () => {
    const { w, present } = await acpWorld();
    const agentMandate = await present();
    expect((await mint(w, { agentMandate })).status).toBe(201);
    const again = await w.s.call('POST', `/cards/${w.card.id}/payment-tokens`, {
      acp: { allowance: allowance(2500, 'cs_2'), merchantName: SELLER.name },
      agentMandate,
    });
    expect(again.body.error.details).toMatchObject({ declinedReason: 'mandate_unverifiable' });
    expect(again.body.error.message).toMatch(/replay/);
    const byCard = await w.authorize(agentMandate, 2500, SELLER);
    expect(byCard).toMatchObject({ status: 'declined', declinedReason: 'mandate_unverifiable' });
  });
});

describe('authorizing a token minted with a mandate', () => {
  it('declines a presentation of another mandate (mandate_rejected), and the token still pays', async () => {
    const { w, claims, present } = await acpWorld();
    const token = (await mint(w, { agentMandate: await present() })).body;
    const other = { ...claims, constraints: [...claims.constraints].reverse() };
    const otherMandate = await present({ openMandate: await w.provider.issue(other) });
    const declined = await payWithToken(w, token, { agentMandate: otherMandate });
    expect(declined).toMatchObject({ status: 'declined', declinedReason: 'mandate_rejected' });
    expect(declined.declinedMessage).toMatch(/^payment token: the token is bound to the AP2 mandate sha256:/);
    expect(await w.s.ok('GET', `/payment-tokens/${token.id}`)).toMatchObject({ status: 'active' });
    expect(await payWithToken(w, token)).toMatchObject({ status: 'pending' });
  });

  it('checks the open mandate again at the authorization: a second token of a one-time mandate cannot pay', async () => {
    const { w, present } = await acpWorld();
    const first = (await mint(w, { agentMandate: await present() })).body;
    const second = (
      await w.s.call('POST', `/cards/${w.card.id}/payment-tokens`, {
        acp: { allowance: allowance(2500, 'cs_2'), merchantName: SELLER.name },
        agentMandate: await present(),
      })
    ).body;
    expect(await payWithToken(w, first)).toMatchObject({ status: 'pending' });
    // The export's recurrence allows one spend: the first token made it.
    const again = await payWithToken(w, second);
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'mandate_rejected' });
    expect(again.declinedMessage).toMatch(/^payment\.agent_recurrence: the mandate allows 1 spend/);
  });
});

// Authorizations gated by an AP2 mandate: the three decline reasons, a verified mandate recorded and named by the
// events, and the receipt of its settlement verified with jose against the published keys.
import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { ap2World, MERCHANT } from './ap2-world.js';

describe('an authorization with an AP2 mandate', () => {
  it('is approved with a valid mandate, its hash on the transaction and in the events, attested by it', async () => {
    const w = await ap2World({ card: { policy: { requireMandate: true, requireAttestation: true } } });
    const txn = await w.authorize(await w.present());
    expect(txn).toMatchObject({ status: 'pending', declinedReason: null, attestationStatus: 'attested' });
    expect(txn.mandate).toMatchObject({ openMandateHash: w.exported.openMandateHash, receipt: null });
    expect(txn.mandate.reference).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const events = await w.s.newEvents('customer');
    const created = events.find((event) => event.type === 'transaction.created');
    expect(created?.data).toMatchObject({ openMandateHash: w.exported.openMandateHash });
    expect(events.map((event) => event.type)).toContain('spend.attested');
  });

  it('without a mandate where the policy requires one: declined mandate_required, and evaluate says so', async () => {
    const w = await ap2World({ customer: { policy: { requireMandate: true } } });
    const txn = await w.authorize(undefined);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: 'mandate_required', mandate: null });
    const evaluation = await w.s.ok('POST', '/spend/evaluate', { cardId: w.card.id, amount: 2500, merchant: MERCHANT });
    expect(evaluation.flags.requiresMandate).toBe(true);
    expect(evaluation.reasons.map((reason: { code: string }) => reason.code)).toContain('mandate_required');
    const declined = (await w.s.newEvents('customer')).find((event) => event.type === 'transaction.declined');
    expect(declined?.data).toMatchObject({ declinedReason: 'mandate_required' });
  });

  it('with a valid mandate for another payee: declined mandate_rejected naming the constraint', async () => {
    const w = await ap2World({ card: { policy: { requireMandate: true } } });
    const other = { name: 'Anthropic', mcc: '5734' };
    const txn = await w.authorize(await w.present({ merchant: other }), 2500, other);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: 'mandate_rejected' });
    // The hash is recorded: the mandate verified, it only does not allow this spend.
    expect(txn.mandate.openMandateHash).toBe(w.exported.openMandateHash);
  });

  it('above the amount range: mandate_rejected; a second spend of a one-time mandate: refused', async () => {
    const w = await ap2World();
    expect(await w.authorize(await w.present({ amount: 9000 }), 9000)).toMatchObject({ declinedReason: 'mandate_rejected' });
    expect(await w.authorize(await w.present())).toMatchObject({ status: 'pending' });
    const again = await w.authorize(await w.present());
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'mandate_rejected' });
  });

  it('a closed mandate for another amount than the spend is rejected (payment_amount)', async () => {
    const w = await ap2World();
    const txn = await w.authorize(await w.present({ amount: 2400 }), 2500);
    expect(txn).toMatchObject({ declinedReason: 'mandate_rejected' });
  });

  it('settles with an AP2 payment_receipt signed by the service, verified against the published key with jose', async () => {
    const w = await ap2World();
    const txn = await w.authorize(await w.present());
    await w.s.settle();
    const settled = await w.s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    const receipt: string = settled.mandate.receipt;
    expect(receipt.split('.')).toHaveLength(3);
    const jwks = await w.s.ok('GET', '/mandate-receipts/keys');
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload, protectedHeader } = await jwtVerify(receipt, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: jwks.keys[0].kid });
    expect(payload).toMatchObject({
      status: 'Success',
      payment_id: txn.id,
      reference: txn.mandate.reference,
      rail_confirmation_verified: true,
    });
    const event = (await w.s.newEvents('customer')).find((e) => e.type === 'transaction.settled');
    expect(event?.data).toMatchObject({ paymentReceipt: receipt, openMandateHash: w.exported.openMandateHash });
    // After a rotation the old receipt still verifies; a new one is signed with the new key.
    const rotated = await w.s.ok('POST', '/mandate-receipts/keys/rotate');
    expect(rotated.keys).toHaveLength(2);
    expect(rotated.keys[1]).toEqual(jwks.keys[0]);
    await expect(jwtVerify(receipt, createLocalJWKSet(rotated), { algorithms: ['ES256'] })).resolves.toBeDefined();
    const other = await ap2World();
    await expect(jwtVerify(receipt, createLocalJWKSet(await other.s.ok('GET', '/mandate-receipts/keys')))).rejects.toThrow();
  });

  it('a transaction without a mandate settles without a receipt', async () => {
    const w = await ap2World();
    const txn = await w.authorize(undefined);
    const settled = await w.s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    expect(settled.mandate).toBeNull();
  });
});

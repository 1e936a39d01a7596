// `POST /spend/evaluate` with an AP2 mandate: verified as an authorization would verify it, never used up.
import { describe, expect, it } from 'vitest';
import { ap2World, MERCHANT } from './ap2-world.js';

const codes = (evaluation: { reasons: { code: string }[] }) => evaluation.reasons.map((reason) => reason.code);

/** `POST /spend/evaluate` of `amount` at the usual merchant on the world's card, presenting `agentMandate`. */
const evaluate = (w: Awaited<ReturnType<typeof ap2World>>, amount: number, agentMandate: string) =>
  w.s.ok('POST', '/spend/evaluate', { cardId: w.card.id, amount, merchant: MERCHANT, agentMandate });

describe('evaluating a spend with an AP2 mandate', () => {
  it('meets requireMandate with a valid mandate, attests the spend, and leaves it usable by the authorization', async () => {
    const w = await ap2World({ card: { policy: { requireMandate: true, requireAttestation: true } } });
    const agentMandate = await w.present();
    await w.s.settle();
    const evaluation = await evaluate(w, 2500, agentMandate);
    expect(evaluation).toMatchObject({ decision: 'approve', reasons: [] });
    expect(evaluation.flags).toMatchObject({ requiresMandate: true, mandateVerified: true, attested: true });
    expect(await w.s.newEvents('customer')).toEqual([]);
    // The same presentation, nonce and all, still pays.
    expect(await w.authorize(agentMandate)).toMatchObject({ status: 'pending', declinedReason: null });
  });

  it('declines a mandate that fails, naming it first, and changes nothing: the presentation still pays', async () => {
    const w = await ap2World({ card: { policy: { requireMandate: true } } });
    const agentMandate = await w.present();
    await w.s.settle();
    // The closed mandate is for 2500: an evaluation of 2400 is a spend it does not allow.
    const rejected = await evaluate(w, 2400, agentMandate);
    expect(rejected.decision).toBe('decline');
    expect(rejected.reasons[0]).toMatchObject({ code: 'mandate_rejected', message: expect.stringMatching(/^payment_amount: /) });
    expect(codes(rejected)).not.toContain('mandate_required');
    expect(rejected.flags.mandateVerified).toBe(false);

    const altered = `${agentMandate.slice(0, 40)}x${agentMandate.slice(41)}`;
    const unverifiable = await evaluate(w, 2500, altered);
    expect(unverifiable).toMatchObject({ decision: 'decline', reasons: [{ code: 'mandate_unverifiable' }] });
    expect(await w.s.newEvents('customer')).toEqual([]);
    expect(await w.s.ok('GET', `/transactions?cardId=${w.card.id}`)).toMatchObject({ data: [] });
    expect(await w.authorize(agentMandate)).toMatchObject({ status: 'pending' });
  });

  it('without a mandate the policy still asks for one (review); without the merchant name it cannot tell', async () => {
    const w = await ap2World({ card: { policy: { requireMandate: true } } });
    const without = await w.s.ok('POST', '/spend/evaluate', { cardId: w.card.id, amount: 2500, merchant: MERCHANT });
    expect(without).toMatchObject({ decision: 'review', reasons: [{ code: 'mandate_required' }] });
    expect(without.flags.mandateVerified).toBe(false);
    const nameless = await w.s.call('POST', '/spend/evaluate', {
      cardId: w.card.id,
      amount: 2500,
      merchant: { mcc: '5734' },
      agentMandate: await w.present(),
    });
    expect(nameless.status).toBe(200);
    expect(nameless.body).toMatchObject({ decision: 'decline', reasons: [{ code: 'mandate_unverifiable' }] });
    expect(nameless.body.reasons[0].message).toMatch(/^payee: the evaluation names no merchant/);
  });
});

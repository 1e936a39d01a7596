// The adversarial fixtures of the test kit: each declined with the right reason, and nothing spent or attested.
import { describe, expect, it } from 'vitest';
import { closedMandateFor, mandateFixtures } from '../../src/index.js';
import { openMandateHash } from '../../src/engine/mandates/mandate-hash.js';
import { ap2World, MERCHANT, NOW_SECONDS } from './ap2-world.js';

async function world() {
  const w = await ap2World({ card: { policy: { requireMandate: true } } });
  const closed = closedMandateFor({ amount: 2500, currency: 'usd', merchant: MERCHANT, cardId: w.card.id });
  const fixtures = await mandateFixtures({
    provider: w.provider,
    agent: w.agent,
    claims: w.exported.claims,
    closed,
    aud: `urn:cardrail:card:${w.card.id}`,
    now: NOW_SECONDS,
  });
  return { w, fixtures };
}

describe('adversarial mandates', () => {
  it('declines every fixture with its reason, names what failed, and changes no balance', async () => {
    const { w, fixtures } = await world();
    const before = await w.s.ok('GET', `/customers/${w.customer.id}/balances`);
    const seen: Record<string, string> = {};
    for (const [name, fixture] of Object.entries(fixtures)) {
      const txn = await w.authorize(fixture.presentation);
      expect(txn, name).toMatchObject({ status: 'declined', declinedReason: fixture.expected });
      expect(typeof txn.declinedMessage, name).toBe('string');
      seen[name] = txn.declinedMessage;
    }
    expect(seen.altered).toMatch(/open mandate does not verify/);
    expect(seen.unknownKey).toMatch(/open mandate does not verify/);
    expect(seen.notAnSdJwt).toMatch(/not an AP2 mandate chain/);
    expect(seen.expired).toMatch(/expired/);
    expect(seen.notYetValid).toMatch(/not yet valid/);
    expect(seen.wrongAudience).toMatch(/audience/);
    expect(seen.algNone).toMatch(/algorithm none/);
    expect(seen.algHs256).toMatch(/algorithm HS256/);
    expect(seen.budgetInMinorUnits).toMatch(/payment\.budget .*minor units/);
    expect(seen.missingReference).toMatch(/payment\.reference/);
    expect(seen.unknownConstraint).toMatch(/payment\.mcc/);
    expect(await w.s.ok('GET', `/customers/${w.customer.id}/balances`)).toEqual(before);
    // The valid presentation still pays: none of the fixtures used the mandate up.
    expect(await w.authorize(await w.present())).toMatchObject({ status: 'pending' });
  });

  it('a replayed presentation is unverifiable, even after a declined first use', async () => {
    const { w } = await world();
    const presentation = await w.present();
    expect(await w.authorize(presentation)).toMatchObject({ status: 'pending' });
    const replay = await w.authorize(presentation);
    expect(replay).toMatchObject({ status: 'declined', declinedReason: 'mandate_unverifiable' });
    expect(replay.declinedMessage).toMatch(/replay/);
  });

  it('another order of the constraints is another mandate: another hash, recorded as such', async () => {
    const { w } = await world();
    const reordered = { ...w.exported.claims, constraints: [...w.exported.claims.constraints].reverse() };
    const hash = await openMandateHash(reordered);
    expect(hash).not.toBe(w.exported.openMandateHash);
    const txn = await w.authorize(await w.present({ openMandate: await w.provider.issue(reordered) }));
    expect(txn).toMatchObject({ status: 'pending', mandate: { openMandateHash: hash } });
  });

  it('a mandate 1 MB long is 413, one over 64 KiB 400, before anything is verified; neither authorizes', async () => {
    const { w } = await world();
    const send = (agentMandate: string) =>
      w.s.call('POST', '/simulate/authorize', {
        cardId: w.card.id,
        amount: 2500,
        currency: 'usd',
        merchant: MERCHANT,
        agentMandate,
      });
    expect((await send('a'.repeat(1024 * 1024))).status).toBe(413);
    const tooLong = await send(`${'a'.repeat(65 * 1024)}~~b~`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'invalid_request', details: { field: '/body/agentMandate' } });
    expect(await w.s.ok('GET', `/transactions?cardId=${w.card.id}`)).toMatchObject({ data: [] });
  });
});

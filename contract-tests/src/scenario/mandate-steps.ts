import { closedMandateFor, createCredentialProvider, createMandateAgent } from '@cardrail/mock-server';
import { verifyPaymentReceipt } from '@cardrail/sdk';
import { expect } from 'vitest';
import { createAgentFor, id, type ScenarioContext } from './context.js';
import { expectApiError, issueCard, owners } from './variant-ops.js';

/**
 * AP2 mandates: a credential provider trusted by the owner, an intent exported as open mandate claims and signed,
 * an authorization under `requireMandate` without a mandate (declined `mandate_required`), an evaluation with one
 * (verified, not used up) and the authorization with it (approved, its hash recorded), its settlement's receipt
 * verified against the published keys, a rotation, and a payment token minted under a mandate and paid with.
 */
export const mandateStep = {
  name: 'mandates: trusted issuers, an intent exported, authorizations with and without a mandate, the receipt (AP2)',
  async run(ctx: ScenarioContext) {
    const client = ctx.vc.client;
    const owner = id(ctx, 'owner');
    const provider = await createCredentialProvider();
    const agentKey = await createMandateAgent();
    const trusted = await owners(ctx.vc).setMandateIssuers(owner, provider.jwks);
    expect(trusted.keys).toEqual(provider.jwks.keys);
    expect((await owners(ctx.vc).mandateIssuers(owner)).keys).toHaveLength(1);
    await expectApiError(
      owners(ctx.vc).setMandateIssuers(owner, { keys: [{ ...provider.jwks.keys[0], kty: 'EC', d: 'x' }] }),
      400,
    );

    const agent = await createAgentFor(ctx.vc, owner, { name: 'Mandated', policy: { requireMandate: true } });
    const card = await issueCard(ctx, { agentId: agent.id });
    const merchant = { name: 'Mandate Store' };
    const intent = await client.intents.create({
      cardId: card,
      summary: 'contract mandate',
      expectedAmount: 1_000,
      currency: 'usd',
      expectedMerchant: merchant.name,
    });
    const exported = await client.intents.mandate(intent.id, { agentKey: agentKey.publicJwk });
    expect(exported.openMandateHash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const spend = { cardId: card, amount: 1_000, currency: 'usd', merchant };
    const refused = await client.simulate.authorize(spend);
    expect(refused).toMatchObject({ status: 'declined', declinedReason: 'mandate_required' });
    const now = Math.floor(Date.parse((await client.simulate.clock.retrieve()).now) / 1000);
    const agentMandate = await agentKey.present(await provider.issue(exported.claims), closedMandateFor({ ...spend, merchant }), {
      aud: `urn:cardrail:card:${card}`,
      iat: now,
    });
    // An evaluation verifies the mandate without using it up: the policy's review goes, and the same presentation pays.
    const unmandated = await client.spend.evaluate(spend);
    expect(unmandated.reasons.map((reason) => reason.code)).toContain('mandate_required');
    const evaluated = await client.spend.evaluate({ ...spend, agentMandate });
    expect(evaluated.reasons.map((reason) => reason.code)).not.toContain('mandate_required');
    expect(evaluated.flags).toMatchObject({ requiresMandate: true, mandateVerified: true });
    const paid = await client.simulate.authorize({ ...spend, agentMandate });
    expect(paid).toMatchObject({ status: 'pending', mandate: { openMandateHash: exported.openMandateHash } });
    const settled = await client.simulate.settle(paid.id);
    const keys = await client.mandates.receiptKeys();
    const { receipt } = await verifyPaymentReceipt(settled.mandate?.receipt ?? '', keys, { reference: paid.mandate?.reference });
    expect(receipt).toMatchObject({ status: 'Success', payment_id: paid.id });
    const rotated = await client.mandates.rotateReceiptKeys();
    expect(rotated.keys.slice(1)).toEqual(keys.keys);

    await payByTokenUnderMandate(ctx, card, { provider, agentKey, now });
  },
};

/**
 * A payment token under `requireMandate`: refused without a mandate (`mandate_required`), minted with one and bound
 * to it, and its authorization records the mandate without presenting it again.
 */
async function payByTokenUnderMandate(
  ctx: ScenarioContext,
  card: string,
  ap2: {
    provider: Awaited<ReturnType<typeof createCredentialProvider>>;
    agentKey: Awaited<ReturnType<typeof createMandateAgent>>;
    now: number;
  },
) {
  const client = ctx.vc.client;
  const merchant = { name: 'Mandate Store', id: 'merch_mandate' };
  // No expected merchant: the open mandate allows any payee; the closed one names the seller by its PSP id.
  const intent = await client.intents.create({ cardId: card, summary: 'contract token', expectedAmount: 1_000, currency: 'usd' });
  const exported = await client.intents.mandate(intent.id, { agentKey: ap2.agentKey.publicJwk });
  const allowance = {
    reason: 'one_time' as const,
    max_amount: 1_000,
    currency: 'usd',
    checkout_session_id: `cs_mandate_${ctx.variant}`,
    merchant_id: merchant.id,
    expires_at: new Date((ap2.now + 3_600) * 1000).toISOString(),
  };
  const request = { acp: { allowance, merchantName: merchant.name }, intentId: intent.id };
  const refused = await expectApiError(client.paymentTokens.create(card, request), 400, 'payment_token_declined');
  expect(refused.details).toMatchObject({ declinedReason: 'mandate_required' });
  const agentMandate = await ap2.agentKey.present(
    await ap2.provider.issue(exported.claims),
    closedMandateFor({ amount: 1_000, currency: 'usd', merchant, cardId: card }),
    { aud: `urn:cardrail:card:${card}`, iat: ap2.now },
  );
  const token = await client.paymentTokens.create(card, { ...request, agentMandate });
  expect(token).toMatchObject({ status: 'active', mandate: { openMandateHash: exported.openMandateHash } });
  const paid = await client.simulate.authorize({
    token: { number: token.networkToken?.number ?? '', cryptogram: token.networkToken?.cryptogram ?? '' },
    amount: 1_000,
    currency: 'usd',
    merchant,
  });
  expect(paid).toMatchObject({ status: 'pending', paymentTokenId: token.id });
  expect(paid.mandate).toMatchObject({ openMandateHash: exported.openMandateHash, reference: token.mandate?.reference });
}

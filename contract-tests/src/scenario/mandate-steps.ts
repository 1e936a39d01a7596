import { closedMandateFor, createCredentialProvider, createMandateAgent } from '@cardrail/mock-server';
import { verifyPaymentReceipt } from '@cardrail/sdk';
import { expect } from 'vitest';
import { createAgentFor, id, type ScenarioContext } from './context.js';
import { expectApiError, issueCard, owners } from './variant-ops.js';

/**
 * AP2 mandates: a credential provider trusted by the owner, an intent exported as open mandate claims and signed,
 * an authorization under `requireMandate` without a mandate (declined `mandate_required`) and with one (approved,
 * its hash recorded), its settlement's receipt verified against the published keys, and a rotation.
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
    const paid = await client.simulate.authorize({ ...spend, agentMandate });
    expect(paid).toMatchObject({ status: 'pending', mandate: { openMandateHash: exported.openMandateHash } });
    const settled = await client.simulate.settle(paid.id);
    const keys = await client.mandates.receiptKeys();
    const { receipt } = await verifyPaymentReceipt(settled.mandate?.receipt ?? '', keys, { reference: paid.mandate?.reference });
    expect(receipt).toMatchObject({ status: 'Success', payment_id: paid.id });
    const rotated = await client.mandates.rotateReceiptKeys();
    expect(rotated.keys.slice(1)).toEqual(keys.keys);
  },
};

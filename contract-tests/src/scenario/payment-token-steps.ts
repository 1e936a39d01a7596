import { expect } from 'vitest';
import { createAgentFor, id, type ScenarioContext } from './context.js';
import { expectApiError, issueCard } from './variant-ops.js';

/** A merchant's public RSA-OAEP-256 key as an MPP card challenge carries it (Web Crypto, no key fetched). */
async function merchantJwk(): Promise<Record<string, unknown>> {
  const algorithm = { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  const { publicKey } = await crypto.subtle.generateKey(algorithm, true, ['encrypt', 'decrypt']);
  const { kty, n, e } = await crypto.subtle.exportKey('jwk', publicKey);
  return { kty, n, e, kid: 'contract-enc', use: 'enc', alg: 'RSA-OAEP-256' };
}

/** `WWW-Authenticate` of a merchant's 402 for 1,200 cents, as draft-card-charge-00 writes it. */
function cardChallenge(jwk: Record<string, unknown>, expires: string): string {
  const request = {
    amount: '1200',
    currency: 'usd',
    methodDetails: { acceptedNetworks: ['visa'], merchantName: 'Contract GPU', encryptionJwk: jwk },
  };
  const encoded = Buffer.from(JSON.stringify(request)).toString('base64url');
  return `Payment id="ch_contract_${Date.now()}", realm="gpu.example.com", method="card", intent="charge", expires="${expires}", request="${encoded}"`;
}

/** An ACP allowance of 1,500 cents at Contract Store until `expires`. */
function allowance(session: string, expires: string) {
  return {
    allowance: {
      reason: 'one_time' as const,
      max_amount: 1_500,
      currency: 'usd',
      checkout_session_id: session,
      merchant_id: 'merch_contract',
      expires_at: expires,
    },
    merchantName: 'Contract Store',
  };
}

/**
 * Payment tokens: minted for an MPP challenge and an ACP allowance, read and listed on their card, authorized once
 * (the second use declined `token_used`), revoked, refused by a person, expired on the test clock, and a malformed
 * challenge refused (payment_token.created, issued, used, revoked, rejected, expired).
 */
export const paymentTokenStep = {
  name: 'payment tokens: MPP and ACP, one use, revoked, refused by a person, expired (payment_token.*)',
  async run(ctx: ScenarioContext) {
    const tokens = ctx.vc.client.paymentTokens;
    await ctx.vc.client.settings.risk.update({ preset: 'permissive' });
    const card = await issueCard(ctx, { agentId: (await createAgentFor(ctx.vc, id(ctx, 'owner'), { name: 'Payer' })).id });
    const now = Date.parse((await ctx.vc.client.simulate.clock.retrieve()).now);
    const inAnHour = new Date(now + 3_600_000).toISOString();

    const mpp = await tokens.create(card, { mpp: { challenge: cardChallenge(await merchantJwk(), inAnHour) } });
    expect(mpp).toMatchObject({ protocol: 'mpp', status: 'active', maxAmount: 1200, networkToken: null });
    expect(mpp.mppCredential?.authorization).toMatch(/^Payment [A-Za-z0-9_-]+$/);
    expect((await tokens.retrieve(mpp.id)).status).toBe('active');

    const acp = await tokens.create(card, { acp: allowance(`cs_paid_${ctx.variant}`, inAnHour) });
    const presented = { number: acp.networkToken?.number ?? '', cryptogram: acp.networkToken?.cryptogram ?? '' };
    const merchant = { name: 'Contract Store', id: 'merch_contract' };
    const paid = await ctx.vc.client.simulate.authorize({ token: presented, amount: 1_400, currency: 'usd', merchant });
    expect(paid).toMatchObject({ status: 'pending', paymentTokenId: acp.id });
    const again = await ctx.vc.client.simulate.authorize({ token: presented, amount: 1_400, currency: 'usd', merchant });
    expect(again).toMatchObject({ status: 'declined', declinedReason: 'token_used' });

    expect((await tokens.revoke(mpp.id)).status).toBe('revoked');
    await expectApiError(tokens.revoke(mpp.id), 400, 'invalid_state');
    expect((await tokens.list(card, { status: 'used' })).data.map((token) => token.id)).toEqual([acp.id]);
    await expectApiError(tokens.create(card, { mpp: { challenge: 'Payment id="unterminated' } }), 400, 'invalid_payment_request');

    const approving = await createAgentFor(ctx.vc, id(ctx, 'owner'), { name: 'Asks first', policy: { requireApproval: true } });
    const asking = await issueCard(ctx, { agentId: approving.id });
    const waiting = await tokens.create(asking, { acp: allowance(`cs_refused_${ctx.variant}`, inAnHour) });
    expect(waiting.status).toBe('pending_approval');
    await ctx.vc.client.intents.reject(waiting.intentId ?? 'int_missing', { reason: 'not now' });
    expect(await tokens.retrieve(waiting.id)).toMatchObject({ status: 'rejected', rejectionReason: 'not now' });

    const brief = await tokens.create(card, { acp: allowance(`cs_brief_${ctx.variant}`, new Date(now + 60_000).toISOString()) });
    await ctx.clock.advance(ctx.vc, 120);
    expect((await tokens.retrieve(brief.id)).status).toBe('expired');
  },
};

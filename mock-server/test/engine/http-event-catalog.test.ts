import { documents } from '@cardrail/spec/documents';
import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function eventTypesOf(variant: 'customer' | 'user'): string[] {
  return Object.keys(documents[variant].webhooks ?? {}).sort();
}

describe('HTTP: every event type of the spec is produced by some operation', () => {
  it('produces all 54 catalog types and all 55 general types in one tour of the API', async () => {
    const s = new Scenario();
    const customer = await s.ok('POST', '/customers', { email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } });
    await s.ok('PATCH', `/customers/${customer.id}`, { phone: '+14155550100' });
    await s.ok('POST', '/simulate/kyc', { customerId: customer.id, status: 'needsInformation' });
    await s.ok('POST', '/simulate/kyc', { customerId: customer.id, status: 'denied' });
    await s.ok('POST', '/simulate/kyc', { customerId: customer.id, status: 'approved' });
    await s.ok('POST', '/simulate/deposits', { customerId: customer.id, amount: 1_000_000 });
    const withdrawal = await s.ok('POST', `/customers/${customer.id}/withdrawals`, {
      amount: 100,
      chainId: 8453,
      recipientAddress: RECIPIENT,
    });
    await s.ok('POST', `/simulate/withdrawals/${withdrawal.id}/confirm`);
    const failing = await s.ok('POST', `/customers/${customer.id}/withdrawals`, {
      amount: 100,
      chainId: 8453,
      recipientAddress: RECIPIENT,
    });
    await s.ok('POST', `/simulate/withdrawals/${failing.id}/fail`);
    await s.ok('PATCH', '/settings/risk', { preset: 'permissive' });

    // Intents, credentials, attestation, 3-D Secure, the transaction state machine, disputes.
    const agent = await s.ok('POST', '/agents', {
      customerId: customer.id,
      name: 'Buyer',
      limits: { amount: 50_000, currency: 'usd', interval: 'daily' },
    });
    const card = await s.ok('POST', '/cards', {
      customerId: customer.id,
      agentId: agent.id,
      merchantHint: 'OpenAI',
      policy: { requireApproval: true },
    });
    const approved = await s.ok('POST', '/intents', {
      cardId: card.id,
      summary: 'GPU',
      expectedAmount: 2000,
      expectedMerchant: 'OpenAI',
    });
    await s.ok('POST', `/intents/${approved.id}/approve`);
    const rejected = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Other', expectedAmount: 3000 });
    await s.ok('POST', `/intents/${rejected.id}/reject`, {});
    await s.ok('POST', `/cards/${card.id}/credentials`, {});
    const matched = await s.authorize(card.id, 2000, { name: 'OpenAI', mcc: '5734' }, { threeDS: true });
    await s.ok('POST', `/simulate/transactions/${matched.id}/settle`, {});
    await s.ok('POST', `/simulate/transactions/${matched.id}/reverse`, {});
    const disputed = await s.authorize(card.id, 1500, { name: 'Steam', mcc: '5816' });
    await s.ok('POST', `/simulate/transactions/${disputed.id}/settle`, {});
    const dispute = await s.ok('POST', `/simulate/transactions/${disputed.id}/dispute`, {});
    await s.ok('POST', `/simulate/disputes/${dispute.id}/resolve`, { outcome: 'lost' });
    const mismatched = await s.ok('POST', '/intents', {
      cardId: card.id,
      summary: 'AWS',
      expectedAmount: 100,
      expectedMerchant: 'AWS',
      ttlMinutes: 1,
    });
    await s.ok('POST', `/intents/${mismatched.id}/approve`);
    await s.authorize(card.id, 900, { name: 'Anthropic' });
    await s.ok('POST', '/intents', { cardId: card.id, summary: 'Expires', expectedAmount: 100, ttlMinutes: 1 });
    await s.advance(120);

    // Payment tokens of the card that requires approval: refused, issued and used, revoked, expired.
    const token = async (session: string, expires: string) =>
      s.ok('POST', `/cards/${card.id}/payment-tokens`, {
        acp: {
          allowance: {
            reason: 'one_time',
            max_amount: 500,
            currency: 'usd',
            checkout_session_id: session,
            merchant_id: 'merch_openai',
            expires_at: expires,
          },
          merchantName: 'OpenAI',
        },
      });
    const refused = await token('cs_refused', '2026-11-23T13:00:00Z');
    await s.ok('POST', `/intents/${refused.intentId}/reject`, {});
    const paid = await token('cs_paid', '2026-11-23T13:00:00Z');
    await s.ok('POST', `/intents/${paid.intentId}/approve`);
    const { networkToken } = await s.ok('GET', `/payment-tokens/${paid.id}`);
    await s.ok('POST', '/simulate/authorize', {
      token: { number: networkToken.number, cryptogram: networkToken.cryptogram },
      amount: 500,
      merchant: { name: 'OpenAI', id: 'merch_openai' },
    });
    const revoked = await token('cs_revoked', '2026-11-23T13:00:00Z');
    await s.ok('POST', `/payment-tokens/${revoked.id}/revoke`);
    await token('cs_expired', '2026-11-23T12:05:00Z');
    await s.advance(300);

    // Limits: the agent's warning, then an attempt above its limit (and the balance): declined, agent suspended.
    await s.authorize(card.id, 39_000, { name: 'OpenAI' });
    await s.authorize(card.id, 2_000_000, { name: 'OpenAI' });
    await s.ok('POST', `/agents/${agent.id}/activate`);

    // Card lifecycle: manual freeze and close, TTL expiry.
    const manual = await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id });
    await s.ok('POST', `/cards/${manual.id}/freeze`);
    await s.ok('POST', `/cards/${manual.id}/close`);
    await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id, policy: { ttlMinutes: 1 } });
    await s.advance(60);

    // Every detector at once (dry run, paranoid: agent.auto_suspended reported), then a strict dry-run freeze.
    const risky = await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id, merchantHint: 'OpenAI' });
    for (let day = 0; day < 7; day++) {
      await s.authorize(risky.id, 2400, { name: 'OpenAI' });
      await s.advance(86_400);
    }
    await s.ok('POST', `/agents/${agent.id}/activate`).catch(() => undefined);
    await s.authorize(risky.id, 2000, { name: 'Steam', mcc: '5816' });
    await s.authorize(risky.id, 100, { name: 'Shop A' });
    await s.authorize(risky.id, 100, { name: 'Shop B' });
    await s.ok('PATCH', `/cards/${risky.id}`, { policy: { cooldownMinutes: 30 } });
    await s.ok('PATCH', '/settings/risk', { preset: 'paranoid', dryRun: true });
    await s.ok('POST', '/intents', { cardId: risky.id, summary: 'AWS', expectedAmount: 9000, expectedMerchant: 'AWS' });
    await s.advance(12 * 60);
    await s.authorize(risky.id, 2000, { name: 'Steam', mcc: '5816' });
    await s.ok('PATCH', '/settings/risk', { preset: 'strict', dryRun: true });
    const last = await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id });
    await s.authorize(last.id, 100, { name: 'OpenAI' });

    await s.ok('DELETE', `/customers/${customer.id}`);

    const user = new Set((await s.newEvents('user')).map((event) => event.type));
    const general = new Set((await s.newEvents('customer')).map((event) => event.type));
    expect([...user].sort()).toEqual(eventTypesOf('user'));
    expect([...general].sort()).toEqual(eventTypesOf('customer'));
  });
});

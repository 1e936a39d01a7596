import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };

describe('HTTP: policy summary and spend evaluation', () => {
  it('merges customer, agent and card policy into the card summary with live figures, in both variants', async () => {
    const s = new Scenario();
    const { card } = await s.setup({
      customer: { policy: { limits: { perDay: 20_000 }, blockedMccs: ['7995'] } },
      agent: { policy: { cooldownMinutes: 5, limits: { perAuth: 8000 } } },
      card: { policy: { limits: { perAuth: 5000 }, ttlDays: 30 } },
    });
    await s.authorize(card.id, 2500);
    const summary = await s.ok('GET', `/cards/${card.id}/policy`);
    expect(summary).toEqual({
      cardId: card.id,
      usage: 'multi',
      ttl: { minutes: null, days: 30, expiresAt: '2026-12-23T12:00:00.000Z', isExpired: false },
      cooldown: {
        minutes: 5,
        lastSpendAt: '2026-11-23T12:00:00.000Z',
        cooldownEndsAt: '2026-11-23T12:05:00.000Z',
        isInCooldown: true,
      },
      limits: {
        perAuth: 5000,
        perDay: 20_000,
        perMonth: null,
        spentDay: 2500,
        spentMonth: 2500,
        remainingDay: 17_500,
        remainingMonth: null,
      },
      policy: { limits: { perDay: 20_000, perAuth: 5000 }, blockedMccs: ['7995'], cooldownMinutes: 5, ttlDays: 30 },
      status: 'active',
    });
    await s.ok('POST', `/cards/${card.id}/freeze`);
    expect((await s.ok('GET', `/cards/${card.id}/policy`, undefined, 'user')).status).toBe('frozen');
  });

  it('evaluates without side effects: the same reasons an authorization would get, and review when approval is needed', async () => {
    const s = new Scenario();
    const { card, customer, agent } = await s.setup({
      balance: 3000,
      card: { policy: { limits: { perAuth: 2000 }, requireApproval: true } },
    });
    const declined = await s.ok('POST', '/spend/evaluate', { cardId: card.id, amount: 5000, currency: 'usd', merchant: OPENAI });
    expect(declined.decision).toBe('decline');
    expect(declined.reasons.map((r: { code: string }) => r.code)).toEqual([
      'spending_limit_exceeded',
      'insufficient_funds',
      'approval_required',
    ]);
    expect(declined.context).toMatchObject({
      customerId: customer.id,
      agentId: agent.id,
      cardId: card.id,
      amount: 5000,
      available: 3000,
    });
    const review = await s.ok('POST', '/spend/evaluate', { cardId: card.id, amount: 1000, merchant: OPENAI }, 'user');
    expect(review).toMatchObject({
      decision: 'review',
      reasons: [{ code: 'approval_required' }],
      flags: { requiresApproval: true },
    });
    await s.expectEvents([]);
    const mismatch = await s.call('POST', '/spend/evaluate', { cardId: card.id, amount: 1000, customerId: 'cus_other' });
    expect(mismatch.status).toBe(400);
    expect((await s.call('POST', '/spend/evaluate', { cardId: 'card_missing', amount: 1000 })).status).toBe(404);
  });

  it('is a dry run of the authorization: a broken budget and a freezing detector change nothing until the spend is tried', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ balance: 100_000, card: { policy: { limits: { perDay: 3000 } } } });
    // strict: an unattested spend (no credential access) is an anomaly whose action is freeze_card.
    await s.ok('PATCH', '/settings/risk', { preset: 'strict' });
    await s.settle();
    const spend = { cardId: card.id, amount: 4000, currency: 'usd', merchant: OPENAI };
    for (let i = 0; i < 3; i++) {
      const evaluation = await s.ok('POST', '/spend/evaluate', spend);
      expect(evaluation.decision).toBe('decline');
      expect(evaluation.reasons.map((r: { code: string }) => r.code)).toEqual(['fraud_suspected', 'spending_limit_exceeded']);
    }
    await s.expectEvents([]);
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('active');
    const txn = await s.authorize(card.id, 4000);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: 'fraud_suspected' });
    await s.expectEvents(['transaction.declined', 'anomaly.unattested', 'card.auto_frozen']);
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('frozen');
  });
});

describe('HTTP: intents', () => {
  it('needs approval at or above autoApproveBelow; approve makes it pending; it then matches an authorization', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireApproval: true, autoApproveBelow: 1000 } } });
    const intent = await s.ok('POST', '/intents', {
      cardId: card.id,
      summary: 'GPU credits',
      expectedAmount: 5000,
      expectedMerchant: 'OpenAI',
      customerIntentId: 'order-7',
    });
    expect(intent).toMatchObject({
      status: 'pending_approval',
      ttlMinutes: 60,
      expiresAt: '2026-11-23T13:00:00.000Z',
      tolerance: { percent: 10, amount: 500 },
    });
    await s.expectEvents(['intent.pending_approval'], { generalExtra: { 0: 'intent.created' } });
    const approved = await s.ok('POST', `/intents/${intent.id}/approve`);
    expect(approved).toMatchObject({ status: 'pending', approvedBy: 'api', approvedAt: '2026-11-23T12:00:00.000Z' });
    await s.expectEvents(['intent.approved']);
    const txn = await s.authorize(card.id, 5400);
    expect(txn.intentId).toBe(intent.id);
    const events = await s.expectEvents(['transaction.authorized', 'user.balance.updated', 'spend.unattested', 'intent.matched']);
    expect(events[3]?.data).toMatchObject({
      intentId: intent.id,
      customerIntentId: 'order-7',
      transactionId: txn.id,
      actualAmount: 5400,
      matchResult: { amountMatch: true, merchantMatch: true },
    });
    expect(await s.ok('GET', `/intents/${intent.id}`)).toMatchObject({ status: 'matched', matchedTransactionId: txn.id });
    const small = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Tiny', expectedAmount: 999 });
    expect(small.status).toBe('pending');
    const list = await s.ok('GET', `/intents?cardId=${card.id}&status=matched`);
    expect(list.data.map((i: { id: string }) => i.id)).toEqual([intent.id]);
  });

  it('rejects an intent pending approval; approving it afterwards is invalid_state', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireApproval: true } } });
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Big', expectedAmount: 9000 }, 'user');
    await s.settle();
    const rejected = await s.ok('POST', `/intents/${intent.id}/reject`, { reason: 'Not this month' }, 'user');
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Not this month', rejectedBy: 'api' });
    const events = await s.expectEvents(['intent.rejected']);
    expect(events[0]?.data).toMatchObject({ intentId: intent.id, status: 'rejected', rejectionReason: 'Not this month' });
    const again = await s.call('POST', `/intents/${intent.id}/approve`);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('expires after its TTL on the test clock', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'GPU', expectedAmount: 2000, ttlMinutes: 15 });
    await s.settle();
    await s.advance(14 * 60);
    await s.expectEvents([]);
    await s.advance(60);
    const events = await s.expectEvents(['intent.expired']);
    expect(events[0]?.data).toMatchObject({
      intentId: intent.id,
      ttlMinutes: 15,
      expiredAt: Date.parse('2026-11-23T12:15:00.000Z'),
    });
    expect((await s.ok('GET', `/intents/${intent.id}`)).status).toBe('expired');
  });

  it('mismatches an authorization outside tolerance (intent.mismatched and the anomaly)', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    await s.ok('PATCH', '/settings/risk', { intentMismatch: { enabled: true, action: 'alert' } });
    const intent = await s.ok('POST', '/intents', {
      cardId: card.id,
      summary: 'AWS',
      expectedAmount: 10_000,
      expectedMerchant: 'AWS',
    });
    await s.settle();
    const txn = await s.authorize(card.id, 10_000);
    const events = await s.expectEvents([
      'transaction.authorized',
      'user.balance.updated',
      'spend.unattested',
      'intent.mismatched',
      'anomaly.intent_mismatch',
    ]);
    expect(events[3]?.data).toMatchObject({
      intentId: intent.id,
      transactionId: txn.id,
      matchResult: { amountMatch: true, merchantMatch: false },
      tolerance: { percent: 10, amount: 500 },
    });
    expect(events[4]?.data).toMatchObject({
      intentId: intent.id,
      action: 'alert',
      dryRun: false,
      details: { expectedMerchant: 'AWS', actualMerchant: 'OpenAI' },
    });
    expect((await s.ok('GET', `/intents/${intent.id}`)).status).toBe('mismatched');
  });
});

describe('HTTP: credentials and attestation', () => {
  it('refuses credentials without a usable intent when requireIntent, then records the access and opens the window', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireIntent: true, attestationWindowMinutes: 10 } } });
    const refused = await s.call('POST', `/cards/${card.id}/credentials`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('intent_required');
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'GPU', expectedAmount: 2000 });
    await s.settle();
    const credentials = await s.ok('POST', `/cards/${card.id}/credentials`, { summary: 'Buying GPU credits' });
    expect(credentials).toMatchObject({ cardId: card.id, expiresAt: '2026-11-23T12:10:00.000Z' });
    expect(credentials.pan.endsWith(card.last4)).toBe(true);
    const accessed = await s.expectEvents(['credential.accessed']);
    expect(accessed[0]?.data).toMatchObject({
      accessEventId: credentials.accessEventId,
      summary: 'Buying GPU credits',
      expectedAmount: 2000,
      exposureMode: 'rawPan',
    });

    const inside = await s.authorize(card.id, 2000);
    expect(inside.attestationStatus).toBe('attested');
    const attested = await s.expectEvents(['transaction.authorized', 'user.balance.updated', 'spend.attested', 'intent.matched']);
    expect(attested[2]?.data).toMatchObject({ transactionId: inside.id, summary: 'Buying GPU credits', expectedAmount: 2000 });
    expect(intent.id).toBe(attested[3]?.data.intentId);
    await s.advance(11 * 60);
    const outside = await s.authorize(card.id, 100, { name: 'AWS' });
    expect(outside.attestationStatus).toBe('unattested');
    await s.expectEvents(['transaction.authorized', 'user.balance.updated', 'spend.unattested']);
  });

  it('withholds credentials under requireApproval until the intent is approved (intent_required, approval_required)', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireApproval: true, autoApproveBelow: 1000 } } });
    const code = async (body: Record<string, unknown>, variant: 'customer' | 'user' = 'customer') => {
      const answer = await s.call('POST', `/cards/${card.id}/credentials`, body, variant);
      expect(answer.status).toBe(400);
      return answer.body.error.code as string;
    };
    expect(await code({})).toBe('intent_required');
    const waiting = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Laptop', expectedAmount: 90_000 });
    expect(waiting.status).toBe('pending_approval');
    await s.settle();
    expect(await code({})).toBe('approval_required');
    expect(await code({ intentId: waiting.id }, 'user')).toBe('approval_required');
    await s.expectEvents([]);

    await s.ok('POST', `/intents/${waiting.id}/approve`);
    await s.settle();
    const credentials = await s.ok('POST', `/cards/${card.id}/credentials`, { intentId: waiting.id });
    expect(credentials).toMatchObject({ cardId: card.id, pan: expect.stringMatching(/^\d{16}$/) });
    const [accessed] = await s.expectEvents(['credential.accessed']);
    expect(accessed?.data).toMatchObject({ accessEventId: credentials.accessEventId, summary: 'Laptop', expectedAmount: 90_000 });

    // The approved intent is consumed by the spend; a small one is auto-approved and opens the card at once.
    await s.authorize(card.id, 90_000);
    await s.settle();
    expect(await code({})).toBe('intent_required');
    const small = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Cable', expectedAmount: 999 });
    expect(small.status).toBe('pending');
    await s.settle();
    expect((await s.call('POST', `/cards/${card.id}/credentials`, {}, 'user')).status).toBe(200);
    await s.expectEvents(['credential.accessed']);
  });

  it('answers intent_required once the intent awaiting approval is rejected', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireApproval: true } } });
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'Yacht', expectedAmount: 90_000 });
    await s.ok('POST', `/intents/${intent.id}/reject`, { reason: 'No' });
    for (const body of [{}, { intentId: intent.id }]) {
      const refused = await s.call('POST', `/cards/${card.id}/credentials`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('intent_required');
    }
  });

  it('freezes the card (unattested_spend) on an unattested spend when requireAttestation', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { requireAttestation: true } } });
    const txn = await s.authorize(card.id, 100);
    expect(txn.declinedReason).toBe('fraud_suspected');
    const events = await s.expectEvents(['transaction.declined', 'spend.unattested', 'card.frozen']);
    expect(events[2]?.data).toMatchObject({ reason: 'unattested_spend', frozenBy: 'system' });
    const refused = await s.call('POST', `/cards/${card.id}/credentials`);
    expect(refused.body.error.code).toBe('card_not_active');
  });
});

describe('HTTP: card TTL', () => {
  it('expires a ttlMinutes card on the test clock and closes it', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { ttlMinutes: 90 } } });
    expect(card.expiresAt).toBe('2026-11-23T13:30:00.000Z');
    await s.advance(89 * 60);
    await s.expectEvents([]);
    await s.advance(60);
    const events = await s.expectEvents(['card.expired', 'card.closed']);
    expect(events[0]?.data).toMatchObject({
      cardId: card.id,
      action: 'close',
      previousStatus: 'active',
      newStatus: 'closed',
      ttlMinutes: 90,
      reason: 'ttl_expired',
      expiresAt: Date.parse('2026-11-23T13:30:00.000Z'),
    });
    expect(events[1]?.data).toMatchObject({ reason: 'ttl_expired', closedBy: 'system' });
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('closed');
  });

  it('expires a user-variant ttlDays card, and follows a policy change that shortens the TTL', async () => {
    const s = new Scenario();
    const { agent, card } = await s.setup();
    const userCard = await s.ok('POST', '/cards', { agentId: agent.id, ttlDays: 2, purpose: 'Cloud' }, 'user');
    await s.ok('PATCH', `/cards/${card.id}`, { policy: { ttlMinutes: 60, ttlAction: 'freeze' } });
    await s.settle();
    await s.advance(3600);
    const frozen = await s.expectEvents(['card.expired']);
    expect(frozen[0]?.data).toMatchObject({ cardId: card.id, action: 'freeze', newStatus: 'frozen' });
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('frozen');
    await s.advance(2 * 86_400);
    const closed = await s.expectEvents(['card.expired', 'card.closed']);
    expect(closed[0]?.data).toMatchObject({ cardId: userCard.id, ttlMinutes: 2880, action: 'close' });
    expect((await s.ok('GET', `/cards/${userCard.id}`, undefined, 'user')).status).toBe('closed');
  });
});

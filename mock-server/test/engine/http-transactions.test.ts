import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };

describe('HTTP: simulated transactions and their state machine', () => {
  it('authorizes, settles and reverses, with both envelopes and the balance moving', async () => {
    const s = new Scenario();
    const { card, customer } = await s.setup({ balance: 10_000 });
    const txn = await s.authorize(card.id, 2500);
    expect(txn).toMatchObject({
      status: 'pending',
      amount: 2500,
      authorizedAmount: 2500,
      declinedReason: null,
      attestationStatus: 'unattested',
      cardId: card.id,
    });
    const authorized = await s.expectEvents(['transaction.authorized', 'user.balance.updated', 'spend.unattested']);
    expect(authorized[0]?.data).toMatchObject({ transactionId: txn.id, amount: 2500, merchantName: 'OpenAI', status: 'pending' });
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 7500, pending: 2500, posted: 0 });

    const settled = await s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    expect(settled).toMatchObject({ status: 'completed', amount: 2500 });
    expect(settled.postedAt).toBe('2026-11-23T12:00:00.000Z');
    await s.expectEvents(['transaction.completed', 'user.balance.updated']);
    expect(await s.ok('GET', `/customers/${customer.id}/balances`)).toMatchObject({ available: 7500, pending: 0, posted: 2500 });

    const reversed = await s.ok('POST', `/simulate/transactions/${txn.id}/reverse`, { amount: 1000 });
    expect(reversed).toMatchObject({ status: 'reversed', reversedAmount: 1000 });
    const events = await s.expectEvents(['transaction.reversed', 'user.balance.updated']);
    expect(events[0]?.data).toMatchObject({ originalAmount: 2500, reversedAmount: 1000, status: 'reversed' });
    expect(await s.ok('GET', `/transactions/${txn.id}`)).toMatchObject({ status: 'reversed', reversedAmount: 1000 });
    const again = await s.call('POST', `/simulate/transactions/${txn.id}/settle`, {});
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_state');
  });

  it('shows the general transaction events with the merchant object in the customer envelope', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const txn = await s.authorize(card.id, 1200);
    await s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {});
    const general = await s.newEvents('customer');
    const created = general.find((event) => event.type === 'transaction.created');
    const settledEvent = general.find((event) => event.type === 'transaction.settled');
    expect(created?.data.merchant).toEqual({ name: 'OpenAI', mcc: '5734' });
    expect(settledEvent?.data.merchant).toEqual({ name: 'OpenAI', mcc: '5734' });
  });

  it.each([
    ['insufficient_funds', { balance: 100 }, {}],
    ['card_frozen', {}, { freeze: true }],
    ['card_closed', {}, { close: true }],
    ['spending_limit_exceeded', { card: { policy: { limits: { perAuth: 1000 } } } }, {}],
    ['blocked_merchant', { card: { policy: { allowedMerchants: ['AWS'] } } }, {}],
    ['blocked_mcc', { customer: { policy: { blockedMccs: ['5734'] } } }, {}],
    ['fraud_suspected', { card: { policy: { requireAttestation: true } } }, {}],
  ] as const)('declines with %s', async (reason, setup, action: { freeze?: boolean; close?: boolean }) => {
    const s = new Scenario();
    const { card } = await s.setup(setup);
    if (action.freeze) await s.ok('POST', `/cards/${card.id}/freeze`);
    if (action.close) await s.ok('POST', `/cards/${card.id}/close`);
    await s.settle();
    const txn = await s.authorize(card.id, 2500);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: reason, attestationStatus: null });
    const events = await s.newEvents('user');
    expect(events[0]).toMatchObject({
      type: 'transaction.declined',
      data: { transactionId: txn.id, declinedReason: reason, status: 'declined' },
    });
    const listed = await s.ok('GET', `/transactions?cardId=${card.id}&status=declined`);
    expect(listed.data.map((t: { id: string }) => t.id)).toEqual([txn.id]);
  });

  it('enforces a cooldown between spends', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { cooldownMinutes: 10 } } });
    await s.authorize(card.id, 100);
    await s.advance(300);
    expect((await s.authorize(card.id, 100, { name: 'AWS' })).declinedReason).toBe('spending_limit_exceeded');
    await s.advance(300);
    expect((await s.authorize(card.id, 100, { name: 'AWS' })).status).toBe('pending');
  });

  it('closes a single-use card after its first success; its transaction can still settle, reverse and be disputed', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { usage: 'single' } });
    const txn = await s.authorize(card.id, 500);
    const events = await s.expectEvents(['transaction.authorized', 'user.balance.updated', 'spend.unattested', 'card.closed']);
    expect(events[3]?.data).toMatchObject({ cardId: card.id, reason: 'single_use_completed', closedBy: 'system' });
    expect(await s.ok('GET', `/cards/${card.id}`)).toMatchObject({
      status: 'closed',
      singleUseConsumedAt: '2026-11-23T12:00:00.000Z',
    });
    expect((await s.authorize(card.id, 500)).declinedReason).toBe('card_closed');
    expect((await s.ok('POST', `/simulate/transactions/${txn.id}/settle`, {})).status).toBe('completed');
    expect(await s.ok('POST', `/simulate/transactions/${txn.id}/reverse`, { amount: 200 })).toMatchObject({
      status: 'reversed',
      reversedAmount: 200,
    });
    expect(await s.ok('POST', `/simulate/transactions/${txn.id}/dispute`, {})).toMatchObject({
      transactionId: txn.id,
      amount: 300,
      status: 'open',
    });
  });

  it('locks a card to its first merchant', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { lockToFirstMerchant: true } } });
    await s.authorize(card.id, 500);
    expect((await s.ok('GET', `/cards/${card.id}`)).merchantLock).toBe('OpenAI');
    expect((await s.authorize(card.id, 500, { name: 'Steam' })).declinedReason).toBe('blocked_merchant');
  });

  it('reports merchant drift against the hint: allowed by default, frozen with onDrift freeze', async () => {
    const s = new Scenario();
    const allowed = await s.setup({ card: { merchantHint: 'OpenAI' } });
    const ok = await s.authorize(allowed.card.id, 500, { name: 'Steam' });
    expect(ok.status).toBe('pending');
    const events = await s.expectEvents([
      'transaction.authorized',
      'user.balance.updated',
      'spend.unattested',
      'card.merchant_drift',
    ]);
    expect(events[3]?.data).toMatchObject({
      expectedMerchant: 'OpenAI',
      actualMerchant: 'Steam',
      action: 'allowed',
      transactionId: ok.id,
    });

    const frozen = await s.setup({ card: { merchantHint: 'OpenAI', policy: { onDrift: 'freeze' } } });
    const declined = await s.authorize(frozen.card.id, 500, { name: 'Steam' });
    expect(declined.declinedReason).toBe('blocked_merchant');
    const after = await s.expectEvents(['transaction.declined', 'card.merchant_drift', 'card.frozen']);
    expect(after[1]?.data.action).toBe('frozen');
    expect(after[2]?.data).toMatchObject({ reason: 'merchant_drift', frozenBy: 'system' });
    expect((await s.ok('GET', `/cards/${frozen.card.id}`)).status).toBe('frozen');
  });

  it('applies per-auth, daily and monthly limits of the card; a broken budget freezes it', async () => {
    const s = new Scenario();
    const { card } = await s.setup({ card: { policy: { limits: { perAuth: 4000, perDay: 5000, perMonth: 9000 } } } });
    expect((await s.authorize(card.id, 4500)).declinedReason).toBe('spending_limit_exceeded');
    await s.expectEvents(['transaction.declined']);
    await s.authorize(card.id, 4000);
    await s.settle();
    expect((await s.authorize(card.id, 1500)).declinedReason).toBe('spending_limit_exceeded');
    const events = await s.expectEvents(['transaction.declined', 'card.frozen']);
    expect(events[1]?.data).toMatchObject({ reason: 'spending_limit_exceeded', frozenBy: 'system' });
    await s.ok('PATCH', `/cards/${card.id}`, { status: 'active' });
    await s.advance(86_400);
    await s.authorize(card.id, 4000);
    await s.settle();
    expect((await s.authorize(card.id, 1500)).declinedReason).toBe('spending_limit_exceeded');
    const policy = await s.ok('GET', `/cards/${card.id}/policy`);
    expect(policy.limits).toMatchObject({ spentDay: 4000, spentMonth: 8000, remainingMonth: 1000 });
  });

  it("warns at 80 % of the agent's limit and suspends the agent when it is exceeded", async () => {
    const s = new Scenario();
    const { card, agent, customer } = await s.setup({
      agent: { limits: { amount: 10_000, currency: 'usd', interval: 'daily' } },
    });
    const second = await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id });
    await s.settle();
    await s.authorize(card.id, 8000);
    const warned = await s.expectEvents([
      'transaction.authorized',
      'user.balance.updated',
      'spend.unattested',
      'agent.limit_approaching',
    ]);
    expect(warned[3]?.data).toMatchObject({
      agentId: agent.id,
      spendingLimit: 10_000,
      currentSpend: 8000,
      percentUsed: 80,
      frequency: 'perDay',
    });
    const txn = await s.authorize(second.id, 2500);
    expect(txn.declinedReason).toBe('spending_limit_exceeded');
    const events = await s.expectEvents([
      'transaction.declined',
      'agent.limit_exceeded',
      'card.frozen',
      'agent.suspended',
      'card.frozen',
    ]);
    expect(events[1]?.data).toMatchObject({
      spendingLimit: 10_000,
      currentSpend: 10_500,
      frequency: 'perDay',
      action: 'suspended',
    });
    expect(events[2]?.data).toMatchObject({ cardId: second.id, reason: 'spending_limit_exceeded' });
    expect(events[3]?.data).toMatchObject({ reason: 'spending_limit_exceeded', suspendedBy: 'system' });
    expect(events[4]?.data).toMatchObject({ cardId: card.id, reason: 'agent_suspended' });
    expect((await s.ok('GET', `/agents/${agent.id}`)).status).toBe('suspended');
    expect((await s.authorize(card.id, 100)).declinedReason).toBe('card_frozen');
  });

  it('requests a 3-D Secure challenge with a one-time code', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const txn = await s.authorize(card.id, 700, OPENAI, { threeDS: true });
    expect(txn.challengeId).toMatch(/^chl_/);
    const events = await s.expectEvents([
      'challenge.requested',
      'transaction.authorized',
      'user.balance.updated',
      'spend.unattested',
    ]);
    expect(events[0]?.data).toMatchObject({
      challengeId: txn.challengeId,
      transactionId: txn.id,
      cardId: card.id,
      deliveryMethod: 'sms',
    });
    expect(events[0]?.data.otp).toMatch(/^\d{6}$/);
  });

  it('answers the user variant with the same transaction and refuses a live key', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    const txn = await s.ok('POST', '/simulate/authorize', { cardId: card.id, amount: 300, merchant: OPENAI }, 'user');
    expect(await s.ok('GET', `/transactions/${txn.id}`, undefined, 'user')).toMatchObject({ id: txn.id, status: 'pending' });
    const live = await s.mock.handle(
      new Request('http://127.0.0.1:4010/v1/simulate/authorize', {
        method: 'POST',
        headers: { Authorization: `Bearer sk_live_${'a'.repeat(20)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ cardId: card.id, amount: 300, merchant: OPENAI }),
      }),
    );
    expect(live.status).toBe(400);
    expect((await live.json()).error.code).toBe('test_mode_only');
  });
});

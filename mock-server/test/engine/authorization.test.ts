import { afterEach, describe, expect, it } from 'vitest';
import { balanceOf } from '../../src/domain/balances.js';
import { retrieveCredentials } from '../../src/engine/credentials.js';
import { createIntent } from '../../src/engine/intents/intent-service.js';
import { intents } from '../../src/engine/records.js';
import { authorize } from '../../src/engine/transactions/authorize.js';
import { EngineWorld } from './support/engine-world.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };
const STEAM = { name: 'Steam', mcc: '5816' };
let world: EngineWorld;
afterEach(() => {
  expect(world.invalidEvents).toEqual([]);
});

describe('authorization', () => {
  it('approves: pending transaction, hold on the balance, and its events in order', () => {
    world = new EngineWorld();
    const { card, customer } = world.setup({ balance: 10_000 });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(txn).toMatchObject({ status: 'pending', declinedReason: null, attestationStatus: 'unattested', amount: 2500 });
    expect(world.types()).toEqual(['transaction.authorized', 'user.balance.updated', 'spend.unattested']);
    expect(world.event('transaction.authorized')).toMatchObject({
      transactionId: txn.id,
      merchantCategory: 'Computer Software Stores',
      merchantCategoryCode: '5734',
      status: 'pending',
    });
    expect(balanceOf(world.tenant, customer.id)).toMatchObject({ available: 7500, pending: 2500 });
    expect(world.card(card.id).lastSpendAt).toBe(world.now());
    expect(world.card(card.id).firstSpendAt).toBe(world.now());
  });

  it('declines above the available balance with insufficient_funds and nothing else', () => {
    world = new EngineWorld();
    const { card, customer } = world.setup({ balance: 1000 });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(txn).toMatchObject({ status: 'declined', declinedReason: 'insufficient_funds', attestationStatus: null });
    expect(world.types()).toEqual(['transaction.declined']);
    expect(world.event('transaction.declined')).toMatchObject({ declinedReason: 'insufficient_funds', status: 'declined' });
    expect(balanceOf(world.tenant, customer.id)).toMatchObject({ available: 1000, pending: 0 });
  });

  it.each([
    ['card_frozen', { status: 'frozen' as const }],
    ['card_closed', { status: 'closed' as const }],
  ])('declines a card that is not active with %s', (reason, card) => {
    world = new EngineWorld();
    const setup = world.setup({ card });
    expect(authorize(world.tenant, { cardId: setup.card.id, amount: 100, merchant: OPENAI }).declinedReason).toBe(reason);
    expect(world.types()).toEqual(['transaction.declined']);
  });

  it('closes a single-use card after its first approved authorization', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { usage: 'single' } });
    authorize(world.tenant, { cardId: card.id, amount: 100, merchant: OPENAI });
    expect(world.types().slice(-1)).toEqual(['card.closed']);
    expect(world.event('card.closed')).toMatchObject({ reason: 'single_use_completed', closedBy: 'system' });
    expect(world.card(card.id)).toMatchObject({ status: 'closed', singleUseConsumedAt: world.now() });
    expect(authorize(world.tenant, { cardId: card.id, amount: 100, merchant: OPENAI }).declinedReason).toBe('card_closed');
  });

  it('locks the card to its first merchant with lockToFirstMerchant', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { lockToFirstMerchant: true } } });
    authorize(world.tenant, { cardId: card.id, amount: 100, merchant: OPENAI });
    expect(world.card(card.id).merchantLock).toBe('OpenAI');
    expect(authorize(world.tenant, { cardId: card.id, amount: 100, merchant: STEAM }).declinedReason).toBe('blocked_merchant');
    expect(authorize(world.tenant, { cardId: card.id, amount: 100, merchant: { name: 'openai' } }).status).toBe('pending');
  });

  it('reports merchant drift from the hint and allows it by default', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { merchantHint: 'OpenAI' } });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 100, merchant: STEAM });
    expect(txn.status).toBe('pending');
    expect(world.event('card.merchant_drift')).toMatchObject({
      transactionId: txn.id,
      expectedMerchant: 'OpenAI',
      actualMerchant: 'Steam',
      action: 'allowed',
    });
  });

  it('declines and freezes on drift when onDrift is freeze', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { merchantHint: 'OpenAI', policy: { onDrift: 'freeze' } } });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 100, merchant: STEAM });
    expect(txn.declinedReason).toBe('blocked_merchant');
    expect(world.types()).toEqual(['transaction.declined', 'card.merchant_drift', 'card.frozen']);
    expect(world.event('card.merchant_drift').action).toBe('frozen');
    expect(world.event('card.frozen')).toMatchObject({ reason: 'merchant_drift', frozenBy: 'system' });
    expect(world.card(card.id).status).toBe('frozen');
  });

  it('declines above the per-authorization cap without freezing; a daily budget exceeded freezes the card', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { limits: { perAuth: 3000, perDay: 5000 } } } });
    expect(authorize(world.tenant, { cardId: card.id, amount: 3500, merchant: OPENAI }).declinedReason).toBe(
      'spending_limit_exceeded',
    );
    expect(world.types()).toEqual(['transaction.declined']);
    authorize(world.tenant, { cardId: card.id, amount: 3000, merchant: OPENAI });
    world.clearEvents();
    expect(authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI }).declinedReason).toBe(
      'spending_limit_exceeded',
    );
    expect(world.types()).toEqual(['transaction.declined', 'card.frozen']);
    expect(world.event('card.frozen').reason).toBe('spending_limit_exceeded');
  });

  it("honours a customer card's monthly SpendingLimit", () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { limits: { amount: 4000, currency: 'usd', interval: 'monthly' } } });
    authorize(world.tenant, { cardId: card.id, amount: 3000, merchant: OPENAI });
    expect(authorize(world.tenant, { cardId: card.id, amount: 1500, merchant: OPENAI }).declinedReason).toBe(
      'spending_limit_exceeded',
    );
  });

  it('warns at 80 % of an agent limit, then suspends the agent when it is exceeded', () => {
    world = new EngineWorld();
    const { card, agent } = world.setup({ agent: { limits: { amount: 10_000, currency: 'usd', interval: 'monthly' } } });
    const other = world.addCard(world.agent(agent.id));
    authorize(world.tenant, { cardId: card.id, amount: 7000, merchant: OPENAI });
    expect(world.types()).not.toContain('agent.limit_approaching');
    world.clearEvents();
    authorize(world.tenant, { cardId: other.id, amount: 1500, merchant: OPENAI });
    expect(world.event('agent.limit_approaching')).toMatchObject({
      spendingLimit: 10_000,
      currentSpend: 8500,
      percentUsed: 85,
      frequency: 'perMonth',
    });
    world.clearEvents();
    const txn = authorize(world.tenant, { cardId: card.id, amount: 2000, merchant: OPENAI });
    expect(txn.declinedReason).toBe('spending_limit_exceeded');
    expect(world.types()).toEqual([
      'transaction.declined',
      'agent.limit_exceeded',
      'card.frozen',
      'agent.suspended',
      'card.frozen',
    ]);
    expect(world.event('agent.limit_exceeded')).toMatchObject({
      spendingLimit: 10_000,
      currentSpend: 10_500,
      frequency: 'perMonth',
      action: 'suspended',
    });
    expect(world.event('card.frozen', 0)).toMatchObject({ cardId: card.id, reason: 'spending_limit_exceeded' });
    expect(world.event('agent.suspended')).toMatchObject({ reason: 'spending_limit_exceeded', suspendedBy: 'system' });
    expect(world.event('card.frozen', 1)).toMatchObject({ cardId: other.id, reason: 'agent_suspended' });
    expect(world.agent(agent.id).status).toBe('suspended');
  });

  it("declines above an agent's per-authorization cap without suspending it", () => {
    world = new EngineWorld();
    const { card, agent } = world.setup({ agent: { policy: { limits: { perAuth: 1000 } } } });
    expect(authorize(world.tenant, { cardId: card.id, amount: 1500, merchant: OPENAI }).declinedReason).toBe(
      'spending_limit_exceeded',
    );
    expect(world.types()).toEqual(['transaction.declined']);
    expect(world.agent(agent.id).status).toBe('active');
  });

  it('marks a spend inside the attestation window attested, and one outside unattested', async () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { attestationWindowMinutes: 10 } } });
    const access = retrieveCredentials(world.tenant, card.id, { summary: 'GPU credits', expectedAmount: 2500 });
    world.clearEvents();
    const inside = authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(inside.attestationStatus).toBe('attested');
    expect(world.event('spend.attested')).toMatchObject({
      transactionId: inside.id,
      attestedAt: access.accessEvent.at,
      summary: 'GPU credits',
      expectedAmount: 2500,
    });
    await world.advance(11 * 60_000);
    world.clearEvents();
    const outside = authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(outside.attestationStatus).toBe('unattested');
    expect(world.event('spend.unattested')).toMatchObject({
      transactionId: outside.id,
      lastCredentialAccess: access.accessEvent.at,
    });
  });

  it('declines an unattested spend and freezes the card when requireAttestation', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireAttestation: true } } });
    const txn = authorize(world.tenant, { cardId: card.id, amount: 100, merchant: OPENAI });
    expect(txn.declinedReason).toBe('fraud_suspected');
    expect(world.types()).toEqual(['transaction.declined', 'spend.unattested', 'card.frozen']);
    expect(world.event('card.frozen').reason).toBe('unattested_spend');
  });

  it('matches an intent within tolerance and mismatches one outside it', () => {
    world = new EngineWorld();
    const { card } = world.setup();
    const intent = createIntent(world.tenant, {
      cardId: card.id,
      summary: 'GPU',
      expectedAmount: 10_000,
      expectedMerchant: 'OpenAI',
    });
    world.clearEvents();
    const txn = authorize(world.tenant, { cardId: card.id, amount: 10_900, merchant: { name: 'openai' } });
    expect(txn.intentId).toBe(intent.id);
    expect(world.event('intent.matched')).toMatchObject({
      intentId: intent.id,
      transactionId: txn.id,
      actualAmount: 10_900,
      matchResult: { amountMatch: true, merchantMatch: true },
    });
    expect(intents.of(world.tenant).get(intent.id)).toMatchObject({ status: 'matched', matchedTransactionId: txn.id });

    const second = createIntent(world.tenant, {
      cardId: card.id,
      summary: 'Small',
      expectedAmount: 1000,
      tolerance: { percent: 0, amount: 100 },
    });
    world.clearEvents();
    authorize(world.tenant, { cardId: card.id, amount: 1200, merchant: STEAM });
    expect(world.event('intent.mismatched')).toMatchObject({
      intentId: second.id,
      matchResult: { amountMatch: false, merchantMatch: true },
      tolerance: { percent: 0, amount: 100 },
    });
    expect(intents.of(world.tenant).get(second.id)?.status).toBe('mismatched');
  });

  it('allows 500 cents around a small expected amount, where 10 percent would be less', () => {
    world = new EngineWorld();
    const { card } = world.setup();
    const near = createIntent(world.tenant, {
      cardId: card.id,
      summary: 'Small',
      expectedAmount: 1000,
      expectedMerchant: 'OpenAI',
    });
    authorize(world.tenant, { cardId: card.id, amount: 1500, merchant: OPENAI });
    expect(intents.of(world.tenant).get(near.id)?.status).toBe('matched');
    const far = createIntent(world.tenant, {
      cardId: card.id,
      summary: 'Small',
      expectedAmount: 1000,
      expectedMerchant: 'OpenAI',
    });
    world.clearEvents();
    authorize(world.tenant, { cardId: card.id, amount: 1501, merchant: OPENAI });
    expect(world.event('intent.mismatched')).toMatchObject({
      intentId: far.id,
      matchResult: { amountMatch: false, merchantMatch: true },
    });
  });

  it('emits challenge.requested with a one-time code for a 3-D Secure authorization', () => {
    world = new EngineWorld();
    const { card } = world.setup();
    const txn = authorize(world.tenant, { cardId: card.id, amount: 100, merchant: OPENAI, threeDS: true });
    expect(world.types()[0]).toBe('challenge.requested');
    expect(world.event('challenge.requested')).toMatchObject({
      challengeId: txn.challengeId,
      transactionId: txn.id,
      deliveryMethod: 'sms',
    });
    expect(world.event('challenge.requested').otp).toMatch(/^\d{6}$/);
  });
});

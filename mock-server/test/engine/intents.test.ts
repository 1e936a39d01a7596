import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { retrieveCredentials } from '../../src/engine/credentials.js';
import { approveIntent, createIntent, rejectIntent } from '../../src/engine/intents/intent-service.js';
import { intents } from '../../src/engine/records.js';
import { EngineWorld } from './support/engine-world.js';

let world: EngineWorld;
afterEach(() => {
  expect(world.invalidEvents).toEqual([]);
});

/** The key a decision is made with, as the API's request pipeline hands it to the engine. */
const KEY = { id: 'key_test0001', name: 'Ada', redactedKey: 'sk_test_...0001' };
const BY_KEY = { apiKey: KEY };

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error.code;
    throw error;
  }
  return undefined;
}

describe('intents', () => {
  it('creates a pending intent when no approval is needed (intent.created only)', () => {
    world = new EngineWorld();
    const { card } = world.setup();
    const intent = createIntent(world.tenant, {
      cardId: card.id,
      summary: 'GPU',
      expectedAmount: 2500,
      customerIntentId: 'order-1',
    });
    expect(intent).toMatchObject({
      status: 'pending',
      ttlMinutes: 60,
      expiresAt: world.now() + 3_600_000,
      tolerance: { percent: 10, amount: 500 },
    });
    expect(world.types()).toEqual(['intent.created']);
    expect(world.event('intent.created')).toMatchObject({ intentId: intent.id, customerIntentId: 'order-1', status: 'pending' });
  });

  it('needs approval at or above autoApproveBelow, and is auto-approved below it', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true, autoApproveBelow: 1000 } } });
    const big = createIntent(world.tenant, { cardId: card.id, summary: 'Big', expectedAmount: 1000 });
    expect(big.status).toBe('pending_approval');
    expect(world.types()).toEqual(['intent.created', 'intent.pending_approval']);
    expect(world.event('intent.pending_approval')).toMatchObject({
      intentId: big.id,
      status: 'pending_approval',
      expectedAmount: 1000,
    });
    world.clearEvents();
    expect(createIntent(world.tenant, { cardId: card.id, summary: 'Small', expectedAmount: 999 }).status).toBe('pending');
    expect(world.types()).toEqual(['intent.created']);
  });

  it('approves a pending_approval intent into pending; a second approval is invalid_state', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true } } });
    const intent = createIntent(world.tenant, { cardId: card.id, summary: 'Big', expectedAmount: 5000 });
    world.clearEvents();
    const approved = approveIntent(world.tenant, intent.id, {
      decidedBy: { name: 'Ada Lovelace', via: 'the dashboard' },
      apiKey: KEY,
    });
    expect(approved).toMatchObject({
      status: 'pending',
      approvedAt: world.now(),
      approvedBy: 'api',
      decidedBy: { name: 'Ada Lovelace', via: 'the dashboard', apiKey: KEY },
    });
    expect(world.types()).toEqual(['intent.approved']);
    expect(world.event('intent.approved')).toMatchObject({ status: 'pending', approvedBy: 'api' });
    expect(errorCode(() => approveIntent(world.tenant, intent.id, BY_KEY))).toBe('invalid_state');
  });

  it('rejects a pending_approval intent; it then cannot open credentials', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true, requireIntent: true } } });
    const intent = createIntent(world.tenant, { cardId: card.id, summary: 'Big', expectedAmount: 5000 });
    world.clearEvents();
    expect(rejectIntent(world.tenant, intent.id, 'Over budget', BY_KEY)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Over budget',
      rejectedBy: 'api',
      decidedBy: { name: null, via: null, apiKey: KEY },
    });
    expect(world.event('intent.rejected')).toMatchObject({ status: 'rejected', rejectionReason: 'Over budget' });
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('intent_required');
  });

  it('expires on the test clock after its TTL (intent.expired)', async () => {
    world = new EngineWorld();
    const { card } = world.setup();
    const intent = createIntent(world.tenant, { cardId: card.id, summary: 'GPU', expectedAmount: 2500, ttlMinutes: 5 });
    world.clearEvents();
    await world.advance(4 * 60_000);
    expect(world.types()).toEqual([]);
    await world.advance(60_000);
    expect(world.types()).toEqual(['intent.expired']);
    expect(world.event('intent.expired')).toMatchObject({
      intentId: intent.id,
      ttlMinutes: 5,
      createdAt: intent.createdAt,
      expiredAt: intent.createdAt + 300_000,
    });
    expect(intents.of(world.tenant).get(intent.id)?.status).toBe('expired');
  });
});

describe('credentials', () => {
  it('refuses without a usable intent when requireIntent, then opens the window with credential.accessed', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireIntent: true, attestationWindowMinutes: 20 } } });
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('intent_required');
    const intent = createIntent(world.tenant, { cardId: card.id, summary: 'GPU', expectedAmount: 2500 });
    world.clearEvents();
    const credentials = retrieveCredentials(world.tenant, card.id, {});
    expect(credentials.pan).toMatch(/^\d{16}$/);
    expect(credentials.pan.endsWith(world.card(card.id).last4)).toBe(true);
    expect(credentials.accessEvent).toMatchObject({ intentId: intent.id, expiresAt: world.now() + 20 * 60_000 });
    expect(world.types()).toEqual(['credential.accessed']);
    expect(world.event('credential.accessed')).toMatchObject({
      accessEventId: credentials.accessEvent.id,
      exposureMode: 'rawPan',
      summary: 'GPU',
      expectedAmount: 2500,
    });
  });

  it('gates credentials behind requireApproval: no intent, an intent awaiting approval, then approved', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true } } });
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('intent_required');
    const intent = createIntent(world.tenant, { cardId: card.id, summary: 'Laptop', expectedAmount: 90_000 });
    expect(intent.status).toBe('pending_approval');
    world.clearEvents();
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('approval_required');
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, { intentId: intent.id }))).toBe('approval_required');
    expect(world.types()).toEqual([]);
    approveIntent(world.tenant, intent.id, BY_KEY);
    world.clearEvents();
    expect(retrieveCredentials(world.tenant, card.id, { intentId: intent.id }).accessEvent).toMatchObject({
      intentId: intent.id,
      expectedAmount: 90_000,
    });
    expect(world.types()).toEqual(['credential.accessed']);
  });

  it('opens credentials for an intent auto-approved below autoApproveBelow, and uses it over one awaiting approval', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true, autoApproveBelow: 1000 } } });
    createIntent(world.tenant, { cardId: card.id, summary: 'Big', expectedAmount: 5000 });
    const small = createIntent(world.tenant, { cardId: card.id, summary: 'Small', expectedAmount: 999 });
    expect(small.status).toBe('pending');
    expect(retrieveCredentials(world.tenant, card.id, {}).accessEvent.intentId).toBe(small.id);
  });

  it('answers intent_required once the intent awaiting approval is rejected or has expired', async () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireApproval: true } } });
    const rejected = createIntent(world.tenant, { cardId: card.id, summary: 'Yacht', expectedAmount: 90_000 });
    rejectIntent(world.tenant, rejected.id, undefined, BY_KEY);
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('intent_required');
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, { intentId: rejected.id }))).toBe('intent_required');
    createIntent(world.tenant, { cardId: card.id, summary: 'Laptop', expectedAmount: 90_000, ttlMinutes: 5 });
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('approval_required');
    await world.advance(5 * 60_000);
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('intent_required');
  });

  it('refuses a frozen card with card_not_active', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { status: 'frozen' } });
    expect(errorCode(() => retrieveCredentials(world.tenant, card.id, {}))).toBe('card_not_active');
  });
});

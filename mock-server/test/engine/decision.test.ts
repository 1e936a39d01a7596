import { afterEach, describe, expect, it } from 'vitest';
import { retrieveCredentials } from '../../src/engine/credentials.js';
import { evaluateSpendRequest } from '../../src/engine/decision/spend-evaluation.js';
import { createIntent } from '../../src/engine/intents/intent-service.js';
import { authorize } from '../../src/engine/transactions/authorize.js';
import { EngineWorld } from './support/engine-world.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };
let world: EngineWorld;
afterEach(() => {
  expect(world.invalidEvents).toEqual([]);
});

function codes(result: { reasons: { code: string }[] }) {
  return result.reasons.map((reason) => reason.code);
}

describe('spend evaluation: the decision shared with authorizations, without side effects', () => {
  it('approves a spend within every rule, with context and flags', () => {
    world = new EngineWorld();
    const { card, customer, agent } = world.setup({
      balance: 50_000,
      agent: { limits: { amount: 100_000, currency: 'usd', interval: 'monthly' } },
    });
    const result = evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(result.decision).toBe('approve');
    expect(result.reasons).toEqual([]);
    expect(result.context).toMatchObject({
      customerId: customer.id,
      agentId: agent.id,
      cardId: card.id,
      amount: 2500,
      available: 50_000,
      agentLimit: { amount: 100_000, currency: 'usd', interval: 'monthly' },
      cardLimit: null,
      spendStats: { totalDay: 0, totalMonth: 0, lastSpendAt: null },
    });
    expect(result.flags).toMatchObject({ requiresIntent: false, inCooldown: false, attested: false });
    expect(world.events).toEqual([]);
  });

  it.each([
    ['insufficient_funds', { balance: 1000 }, 2500, OPENAI],
    ['card_frozen', { card: { status: 'frozen' as const } }, 2500, OPENAI],
    ['card_closed', { card: { status: 'closed' as const } }, 2500, OPENAI],
    ['spending_limit_exceeded', { card: { policy: { limits: { perAuth: 2000 } } } }, 2500, OPENAI],
    ['blocked_mcc', { customer: { policy: { blockedMccs: ['5734'] } } }, 2500, OPENAI],
    ['blocked_mcc', { agent: { policy: { allowedMccs: ['5411'] } } }, 2500, OPENAI],
    ['blocked_merchant', { card: { policy: { allowedMerchants: ['AWS'] } } }, 2500, OPENAI],
    ['blocked_merchant', { card: { merchantLock: 'AWS' } }, 2500, OPENAI],
  ])('declines with %s and a human message', (code, setup, amount, merchant) => {
    world = new EngineWorld();
    const { card } = world.setup(setup);
    const result = evaluateSpendRequest(world.tenant, { cardId: card.id, amount, merchant });
    expect(result.decision).toBe('decline');
    expect(result.reasons[0]?.code).toBe(code);
    expect(result.reasons[0]?.message.length).toBeGreaterThan(10);
    expect(world.events).toEqual([]);
  });

  it('declines with fraud_suspected when a detector would freeze, and not in dry run', () => {
    world = new EngineWorld();
    const { card } = world.setup();
    world.risk({ preset: 'strict' });
    expect(codes(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI }))).toEqual([
      'fraud_suspected',
    ]);
    world.risk({ dryRun: true });
    expect(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI }).decision).toBe('approve');
  });

  it('lists every broken rule, most serious first', () => {
    world = new EngineWorld();
    const { card } = world.setup({ balance: 100, card: { policy: { limits: { perAuth: 2000 }, blockedMccs: ['5734'] } } });
    expect(codes(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI }))).toEqual([
      'blocked_mcc',
      'spending_limit_exceeded',
      'insufficient_funds',
    ]);
  });

  it('stops at a frozen agent before any other rule', () => {
    world = new EngineWorld();
    const { card } = world.setup({ agent: { status: 'suspended' }, card: { policy: { limits: { perAuth: 1 } } } });
    expect(codes(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI }))).toEqual([
      'card_frozen',
    ]);
  });

  it('asks for review when an intent or an approval is required, and approves once an intent is usable', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireIntent: true, requireApproval: true, autoApproveBelow: 1000 } } });
    const before = evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: OPENAI });
    expect(before.decision).toBe('review');
    expect(codes(before)).toEqual(['intent_required', 'approval_required']);
    const small = evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 500, merchant: OPENAI });
    expect(codes(small)).toEqual(['intent_required']);
    createIntent(world.tenant, { cardId: card.id, summary: 'GPU credits', expectedAmount: 500, expectedMerchant: 'OpenAI' });
    expect(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 500, merchant: OPENAI }).decision).toBe('approve');
  });

  it('reports cooldown as spending_limit_exceeded and the in-cooldown flag', async () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { cooldownMinutes: 10 } } });
    authorize(world.tenant, { cardId: card.id, amount: 1000, merchant: OPENAI });
    await world.advance(5 * 60_000);
    const during = evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 1000, merchant: { name: 'AWS' } });
    expect(codes(during)).toEqual(['spending_limit_exceeded']);
    expect(during.reasons[0]?.message).toContain('cooldown');
    expect(during.flags.inCooldown).toBe(true);
    expect(during.context.spendStats).toMatchObject({ totalDay: 1000, totalMonth: 1000 });
    await world.advance(5 * 60_000);
    expect(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 1000, merchant: OPENAI }).decision).toBe('approve');
  });

  it('treats a spend after a credential access as attested until the window closes', async () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { requireAttestation: true, attestationWindowMinutes: 5 } } });
    expect(codes(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 1000, merchant: OPENAI }))).toEqual([
      'fraud_suspected',
    ]);
    retrieveCredentials(world.tenant, card.id, {});
    const inside = evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 1000, merchant: OPENAI });
    expect(inside.decision).toBe('approve');
    expect(inside.flags.attested).toBe(true);
    await world.advance(6 * 60_000);
    expect(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 1000, merchant: OPENAI }).flags.attested).toBe(false);
  });

  it('checks a category given without a merchant name', () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { blockedMccs: ['7995'] } } });
    expect(codes(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 100, merchant: { mcc: '7995' } }))).toEqual([
      'blocked_mcc',
    ]);
    expect(evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 100 }).decision).toBe('approve');
  });
});

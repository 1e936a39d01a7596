import { describe, expect, it } from 'vitest';
import { Scenario } from './support/http-scenario.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };

describe('HTTP: risk settings', () => {
  it('starts at moderate, switches presets, becomes custom when a rule changes, in both variants', async () => {
    const s = new Scenario();
    const initial = await s.ok('GET', '/settings/risk');
    expect(initial).toMatchObject({
      object: 'riskConfig',
      preset: 'moderate',
      dryRun: false,
      duplicateDetection: { enabled: true, action: 'alert' },
    });
    const strict = await s.ok('PATCH', '/settings/risk', { preset: 'strict' }, 'user');
    expect(strict).toMatchObject({ preset: 'strict', merchantDrift: { enabled: true, action: 'freeze_card' } });
    const dry = await s.ok('PATCH', '/settings/risk', { dryRun: true });
    expect(dry).toMatchObject({ preset: 'strict', dryRun: true });
    const custom = await s.ok('PATCH', '/settings/risk', { velocityLimit: { maxPerHour: 2 } }, 'user');
    expect(custom).toMatchObject({ preset: 'custom', velocityLimit: { maxPerHour: 2, maxPerDay: 25, action: 'freeze_card' } });
    expect(await s.ok('GET', '/settings/risk', undefined, 'user')).toEqual(custom);
    const paranoid = await s.ok('PATCH', '/settings/risk', { preset: 'paranoid' });
    expect(paranoid).toMatchObject({
      preset: 'paranoid',
      dryRun: true,
      cooldownViolation: { enabled: true, action: 'suspend_agent' },
    });
    expect((await s.call('PATCH', '/settings/risk', { velocityLimit: { action: 'explode' } })).status).toBe(400);
  });
});

interface Case {
  type: string;
  rule: string;
  card?: Record<string, unknown>;
  ruleFields?: Record<string, unknown>;
  /** Builds the history that makes the next authorization (2000 at OpenAI) trigger the detector; the rule is still off. */
  arrange: (s: Scenario, cardId: string) => Promise<void>;
  /** Events an approved authorization sends before the anomaly (after spend.unattested). */
  approvedExtra?: string[];
  /** Events a declined one sends before the anomaly. */
  declinedExtra?: string[];
  /** The policy itself declines the attempt (cooldown). */
  policyDecline?: string;
  details: Record<string, unknown>;
}

const CASES: Case[] = [
  {
    type: 'duplicate',
    rule: 'duplicateDetection',
    arrange: async (s, cardId) => void (await s.authorize(cardId, 2000)),
    details: { windowMinutes: 10, amount: 2000, merchantName: 'OpenAI' },
  },
  {
    type: 'velocity',
    rule: 'velocityLimit',
    ruleFields: { maxPerHour: 2 },
    arrange: async (s, cardId) => {
      await s.authorize(cardId, 100, { name: 'Shop A' });
      await s.authorize(cardId, 200, { name: 'Shop B' });
    },
    details: { count: 3, limit: 2, window: 'hour' },
  },
  {
    type: 'spend_spike',
    rule: 'spendSpike',
    arrange: async (s, cardId) => {
      for (let day = 0; day < 7; day++) {
        await s.authorize(cardId, 2400, { name: 'OpenAI' });
        await s.advance(86_400);
      }
    },
    details: { currentRate: 2000, baselineRate: 100, multiplier: 20, threshold: 3, windowMinutes: 60 },
  },
  {
    type: 'unattested',
    rule: 'unattestedSpend',
    arrange: async () => undefined,
    details: { amount: 2000, merchantName: 'OpenAI', lastCredentialAccess: null },
  },
  {
    type: 'intent_mismatch',
    rule: 'intentMismatch',
    arrange: async (s, cardId) =>
      void (await s.ok('POST', '/intents', { cardId, summary: 'AWS', expectedAmount: 9000, expectedMerchant: 'AWS' })),
    approvedExtra: ['intent.mismatched'],
    declinedExtra: ['intent.mismatched'],
    details: { expectedAmount: 9000, actualAmount: 2000, expectedMerchant: 'AWS', actualMerchant: 'OpenAI' },
  },
  {
    type: 'cooldown',
    rule: 'cooldownViolation',
    card: { policy: { cooldownMinutes: 30 } },
    arrange: async (s, cardId) => {
      await s.authorize(cardId, 500, { name: 'Shop' });
      await s.advance(12 * 60);
    },
    policyDecline: 'spending_limit_exceeded',
    details: { cooldownMinutes: 30, timeSinceLastMinutes: 12 },
  },
  {
    type: 'merchant_drift',
    rule: 'merchantDrift',
    arrange: async (s, cardId) => void (await s.authorize(cardId, 500, { name: 'Steam', mcc: '5816' })),
    details: { pinnedMerchant: 'Steam', actualMerchant: 'OpenAI', pinnedMcc: '5816', actualMcc: '5734' },
  },
];

async function prepare(c: Case, action: string, dryRun: boolean) {
  const s = new Scenario();
  const setup = await s.setup({ card: c.card });
  await s.ok('PATCH', '/settings/risk', { preset: 'permissive' });
  await c.arrange(s, setup.card.id);
  await s.ok('PATCH', '/settings/risk', { dryRun, [c.rule]: { enabled: true, action, ...c.ruleFields } });
  await s.settle();
  const txn = await s.authorize(setup.card.id, 2000, OPENAI);
  return { s, txn, ...setup };
}

describe.each(CASES)('HTTP: detector $type', (c) => {
  it('not in dry run: freeze_card declines with fraud_suspected, sends the anomaly and card.auto_frozen, freezes the card', async () => {
    const { s, txn, card } = await prepare(c, 'freeze_card', false);
    expect(txn).toMatchObject({ status: 'declined', declinedReason: 'fraud_suspected' });
    const events = await s.expectEvents([
      'transaction.declined',
      ...(c.declinedExtra ?? []),
      `anomaly.${c.type}`,
      'card.auto_frozen',
    ]);
    const anomaly = events[events.length - 2];
    expect(anomaly?.data).toMatchObject({
      transactionId: txn.id,
      cardId: card.id,
      action: 'freeze_card',
      dryRun: false,
      details: c.details,
    });
    expect(events[events.length - 1]?.data).toMatchObject({
      cardId: card.id,
      transactionId: txn.id,
      reason: `anomaly_${c.type}`,
      anomalyType: c.type,
      dryRun: false,
    });
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('frozen');
  });

  it('in dry run: reports the anomaly and the freeze it would make, and takes no action', async () => {
    const { s, txn, card } = await prepare(c, 'freeze_card', true);
    const before = c.policyDecline
      ? ['transaction.declined']
      : ['transaction.authorized', 'user.balance.updated', 'spend.unattested', ...(c.approvedExtra ?? [])];
    expect(txn.declinedReason).toBe(c.policyDecline ?? null);
    const events = await s.expectEvents([...before, `anomaly.${c.type}`, 'card.auto_frozen']);
    expect(events[events.length - 2]?.data).toMatchObject({ action: 'freeze_card', dryRun: true, details: c.details });
    expect(events[events.length - 1]?.data).toMatchObject({ dryRun: true, anomalyType: c.type });
    expect((await s.ok('GET', `/cards/${card.id}`)).status).toBe('active');
  });
});

describe('HTTP: risk actions', () => {
  it('suspend_agent suspends the agent and freezes every active card of it', async () => {
    const s = new Scenario();
    const { card, agent, customer } = await s.setup();
    const other = await s.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id });
    await s.ok('PATCH', '/settings/risk', {
      preset: 'permissive',
      velocityLimit: { enabled: true, maxPerHour: 1, action: 'suspend_agent' },
    });
    await s.authorize(card.id, 100);
    await s.settle();
    const txn = await s.authorize(card.id, 200, { name: 'AWS' });
    expect(txn.declinedReason).toBe('fraud_suspected');
    const events = await s.expectEvents([
      'transaction.declined',
      'anomaly.velocity',
      'agent.auto_suspended',
      'card.frozen',
      'card.frozen',
    ]);
    expect(events[2]?.data).toMatchObject({
      agentId: agent.id,
      userId: customer.id,
      transactionId: txn.id,
      reason: 'anomaly_velocity',
      anomalyType: 'velocity',
      dryRun: false,
      cardsFrozen: 2,
    });
    expect(events.slice(3).map((e) => e.data.reason)).toEqual(['agent_suspended', 'agent_suspended']);
    expect((await s.ok('GET', `/agents/${agent.id}`)).status).toBe('suspended');
    expect((await s.ok('GET', `/cards/${other.id}`)).status).toBe('frozen');
  });

  it('alert lets the authorization through with only the anomaly event', async () => {
    const s = new Scenario();
    const { card } = await s.setup();
    await s.authorize(card.id, 2000);
    await s.settle();
    const txn = await s.authorize(card.id, 2000);
    expect(txn.status).toBe('pending');
    const events = await s.expectEvents([
      'transaction.authorized',
      'user.balance.updated',
      'spend.unattested',
      'anomaly.duplicate',
    ]);
    expect(events[3]?.data).toMatchObject({ action: 'alert', dryRun: false, details: { windowMinutes: 10 } });
  });
});

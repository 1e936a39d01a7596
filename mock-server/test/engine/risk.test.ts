import { afterEach, describe, expect, it } from 'vitest';
import { retrieveCredentials } from '../../src/engine/credentials.js';
import { createIntent } from '../../src/engine/intents/intent-service.js';
import { applyRiskUpdate, defaultRiskConfig, presetConfig, type RiskConfigUpdate } from '../../src/engine/risk/risk-config.js';
import { authorize } from '../../src/engine/transactions/authorize.js';
import type { AnomalyType } from '../../src/engine/types.js';
import { EngineWorld, type SetupOptions } from './support/engine-world.js';

const OPENAI = { name: 'OpenAI', mcc: '5734' };
const DAY = 86_400_000;
let world: EngineWorld | undefined;
const w = () => world as EngineWorld;
afterEach(() => {
  expect(world?.invalidEvents ?? []).toEqual([]);
});

describe('risk settings', () => {
  it('starts at moderate: duplicate and velocity on, alerting only', () => {
    const config = defaultRiskConfig();
    expect(config).toMatchObject({ object: 'riskConfig', preset: 'moderate', dryRun: false });
    expect(config.duplicateDetection).toMatchObject({ enabled: true, action: 'alert' });
    expect(config.velocityLimit).toMatchObject({ enabled: true, action: 'alert' });
    expect(config.spendSpike.enabled).toBe(false);
  });

  it('has the documented presets (docs/risk.md)', () => {
    const rules = [
      'duplicateDetection',
      'velocityLimit',
      'spendSpike',
      'unattestedSpend',
      'intentMismatch',
      'cooldownViolation',
      'merchantDrift',
    ] as const;
    expect(rules.every((rule) => !presetConfig('permissive')[rule].enabled)).toBe(true);
    expect(
      rules.every((rule) => presetConfig('strict')[rule].enabled && presetConfig('strict')[rule].action === 'freeze_card'),
    ).toBe(true);
    const paranoid = presetConfig('paranoid');
    expect(rules.every((rule) => paranoid[rule].action === 'suspend_agent')).toBe(true);
    expect(paranoid.velocityLimit.maxPerHour).toBeLessThan(presetConfig('strict').velocityLimit.maxPerHour);
  });

  it('applies a preset first, then the body; a changed rule makes the preset custom, dryRun does not', () => {
    const start = defaultRiskConfig();
    expect(applyRiskUpdate(start, { dryRun: true })).toMatchObject({ preset: 'moderate', dryRun: true });
    expect(applyRiskUpdate(start, { velocityLimit: { maxPerHour: 10 } }).preset).toBe('moderate');
    const custom = applyRiskUpdate(start, { preset: 'strict', velocityLimit: { maxPerHour: 2 } });
    expect(custom).toMatchObject({ preset: 'custom', velocityLimit: { maxPerHour: 2, action: 'freeze_card', enabled: true } });
    expect(applyRiskUpdate(custom, { preset: 'permissive' }).preset).toBe('permissive');
  });
});

interface DetectorCase {
  type: AnomalyType;
  rule: keyof RiskConfigUpdate;
  setup?: SetupOptions;
  /** Prepares the card so that the next authorization (OpenAI, 2000) triggers the detector. */
  arrange: (world: EngineWorld, cardId: string) => Promise<void> | void;
  details: Record<string, unknown>;
  /** A policy rule that declines the attempt by itself (the cooldown policy): alerts do not change that. */
  policyDecline?: string;
}

const CASES: DetectorCase[] = [
  {
    type: 'duplicate',
    rule: 'duplicateDetection',
    arrange: (w, cardId) => void authorize(w.tenant, { cardId, amount: 2000, merchant: OPENAI }),
    details: { windowMinutes: 10, amount: 2000, merchantName: 'OpenAI' },
  },
  {
    type: 'velocity',
    rule: 'velocityLimit',
    arrange: (w, cardId) => {
      for (let i = 0; i < 2; i++) authorize(w.tenant, { cardId, amount: 100 + i, merchant: { name: `Shop ${i}` } });
    },
    details: { count: 3, limit: 2, window: 'hour' },
  },
  {
    type: 'spend_spike',
    rule: 'spendSpike',
    arrange: (w, cardId) => {
      // A baseline of 2400 a day for 7 days (100 per hour) lies behind the fake clock: record it directly.
      const state = w.state.cardState(cardId);
      for (let day = 1; day <= 7; day++) state.recordSpend(`txn_base${day}`, 2400, OPENAI, w.now() - day * DAY);
    },
    details: { currentRate: 2000, baselineRate: 100, multiplier: 20, threshold: 3, windowMinutes: 60 },
  },
  {
    type: 'unattested',
    rule: 'unattestedSpend',
    arrange: () => undefined,
    details: { amount: 2000, merchantName: 'OpenAI', lastCredentialAccess: null },
  },
  {
    type: 'intent_mismatch',
    rule: 'intentMismatch',
    arrange: (w, cardId) =>
      void createIntent(w.tenant, { cardId, summary: 'AWS bill', expectedAmount: 9000, expectedMerchant: 'AWS' }),
    details: { expectedAmount: 9000, actualAmount: 2000, expectedMerchant: 'AWS', actualMerchant: 'OpenAI' },
  },
  {
    type: 'cooldown',
    rule: 'cooldownViolation',
    setup: { card: { policy: { cooldownMinutes: 30 } } },
    arrange: async (w, cardId) => {
      authorize(w.tenant, { cardId, amount: 500, merchant: { name: 'Shop' } });
      await w.advance(12 * 60_000);
    },
    details: { cooldownMinutes: 30, timeSinceLastMinutes: 12 },
    policyDecline: 'spending_limit_exceeded',
  },
  {
    type: 'merchant_drift',
    rule: 'merchantDrift',
    arrange: (w, cardId) => void authorize(w.tenant, { cardId, amount: 500, merchant: { name: 'Steam', mcc: '5816' } }),
    details: { pinnedMerchant: 'Steam', actualMerchant: 'OpenAI', pinnedMcc: '5816', actualMcc: '5734' },
  },
];

/** Only the detector under test is on, with `action`; velocity allows 2 an hour. */
function only(
  rule: keyof RiskConfigUpdate,
  action: 'alert' | 'freeze_card' | 'suspend_agent',
  dryRun: boolean,
): RiskConfigUpdate {
  const update: RiskConfigUpdate = { preset: 'permissive', dryRun, [rule]: { enabled: true, action } };
  if (rule === 'velocityLimit') update.velocityLimit = { enabled: true, action, maxPerHour: 2 };
  return update;
}

describe.each(CASES)('detector $type', ({ type, rule, setup, arrange, details, policyDecline }) => {
  async function trigger(action: 'alert' | 'freeze_card' | 'suspend_agent', dryRun: boolean) {
    const fresh = new EngineWorld();
    world = fresh;
    const created = fresh.setup(setup);
    fresh.risk(only(rule, action, dryRun));
    await arrange(fresh, created.card.id);
    fresh.clearEvents();
    const txn = authorize(fresh.tenant, { cardId: created.card.id, amount: 2000, merchant: OPENAI });
    return { ...created, txn };
  }

  it('alerts: the authorization proceeds and the anomaly carries its details', async () => {
    const { txn, card } = await trigger('alert', false);
    expect(txn.declinedReason).toBe(policyDecline ?? null);
    const anomaly = w().event(`anomaly.${type}`);
    expect(anomaly).toMatchObject({ transactionId: txn.id, cardId: card.id, action: 'alert', dryRun: false, details });
    expect(w().types()).not.toContain('card.auto_frozen');
  });

  it('freeze_card: declines with fraud_suspected and freezes the card (card.auto_frozen)', async () => {
    const { txn, card } = await trigger('freeze_card', false);
    expect(txn.declinedReason).toBe('fraud_suspected');
    const types = w().types();
    expect(types[0]).toBe('transaction.declined');
    expect(types.indexOf(`anomaly.${type}`)).toBeLessThan(types.indexOf('card.auto_frozen'));
    expect(w().event('card.auto_frozen')).toMatchObject({
      cardId: card.id,
      transactionId: txn.id,
      reason: `anomaly_${type}`,
      anomalyType: type,
      dryRun: false,
    });
    expect(w().card(card.id).status).toBe('frozen');
  });

  it('suspend_agent: declines and suspends the agent, freezing each of its active cards', async () => {
    const { txn, agent, card } = await trigger('suspend_agent', false);
    expect(txn.declinedReason).toBe('fraud_suspected');
    expect(w().event('agent.auto_suspended')).toMatchObject({
      agentId: agent.id,
      transactionId: txn.id,
      reason: `anomaly_${type}`,
      anomalyType: type,
      dryRun: false,
      cardsFrozen: 1,
    });
    expect(w().event('card.frozen')).toMatchObject({ cardId: card.id, reason: 'agent_suspended' });
    expect(w().agent(agent.id).status).toBe('suspended');
  });

  it('dry run: reports the anomaly and the action it would take, and takes none', async () => {
    const { txn, card } = await trigger('freeze_card', true);
    expect(txn.declinedReason).toBe(policyDecline ?? null);
    expect(w().event(`anomaly.${type}`)).toMatchObject({ action: 'freeze_card', dryRun: true });
    expect(w().event('card.auto_frozen')).toMatchObject({ dryRun: true });
    expect(w().card(card.id).status).toBe('active');
  });
});

describe('detectors stay quiet when nothing is wrong', () => {
  it('raises nothing on an attested, matching, first spend under strict', () => {
    world = new EngineWorld();
    const { card } = w().setup();
    w().risk({ preset: 'strict' });
    createIntent(w().tenant, { cardId: card.id, summary: 'GPU', expectedAmount: 2000, expectedMerchant: 'OpenAI' });
    retrieveCredentials(w().tenant, card.id, {});
    w().clearEvents();
    const txn = authorize(w().tenant, { cardId: card.id, amount: 2000, merchant: OPENAI });
    expect(txn.status).toBe('pending');
    expect(
      w()
        .types()
        .filter((t) => t.startsWith('anomaly.')),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { agentLimitSet, cardLimitSet, effectivePolicy } from '../../src/engine/policy/card-policy.js';
import { mergePolicies } from '../../src/engine/policy/merge-policies.js';
import type { CardRecord } from '../../src/engine/types.js';

/** The card fields a policy merge reads: its own policy and its customer-variant SpendingLimit. */
const card = (fields: Partial<Pick<CardRecord, 'policy' | 'limits'>> = {}): Pick<CardRecord, 'policy' | 'limits'> => ({
  policy: {},
  limits: null,
  ...fields,
});

describe('policy merge (customer -> agent -> card, most restrictive wins)', () => {
  it('takes the smallest limit of each window from any layer', () => {
    const merged = mergePolicies(
      { limits: { perAuth: 5000, perDay: 20000 } },
      { limits: { perAuth: 8000, perMonth: 90000 } },
      { limits: { perDay: 15000 } },
    );
    expect(merged.limits).toEqual({ perAuth: 5000, perDay: 15000, perMonth: 90000 });
  });

  it('intersects allow-lists, unites blocked categories and lets true win for booleans', () => {
    const merged = mergePolicies(
      { allowedMccs: ['5734', '5817'], blockedMccs: ['7995'], allowedMerchants: ['OpenAI', 'AWS'], requireIntent: true },
      {
        allowedMccs: ['5734'],
        blockedMccs: ['6051'],
        allowedMerchants: ['openai'],
        requireIntent: false,
        lockToFirstMerchant: true,
      },
    );
    expect(merged.allowedMccs).toEqual(['5734']);
    expect(merged.blockedMccs).toEqual(['7995', '6051']);
    expect(merged.allowedMerchants).toEqual(['OpenAI']);
    expect(merged.requireIntent).toBe(true);
    expect(merged.lockToFirstMerchant).toBe(true);
  });

  it('keeps the longest cooldown, the shortest TTL and attestation window, the lowest auto-approval, freeze on drift and close on TTL', () => {
    const merged = mergePolicies(
      {
        cooldownMinutes: 5,
        ttlDays: 30,
        attestationWindowMinutes: 30,
        autoApproveBelow: 5000,
        onDrift: 'freeze',
        ttlAction: 'freeze',
      },
      {
        cooldownMinutes: 15,
        ttlDays: 7,
        attestationWindowMinutes: 10,
        autoApproveBelow: 1000,
        onDrift: 'allow',
        ttlAction: 'close',
      },
    );
    expect(merged).toMatchObject({
      cooldownMinutes: 15,
      ttlDays: 7,
      attestationWindowMinutes: 10,
      autoApproveBelow: 1000,
      onDrift: 'freeze',
      ttlAction: 'close',
    });
  });

  it("takes the card's own policy (where the user card keeps limits, ttlDays, requireApproval, autoApproveBelow) last", () => {
    const policy = effectivePolicy(
      { policy: { limits: { perDay: 10000 } } },
      { policy: { autoApproveBelow: 3000 } },
      card({ policy: { limits: { perAuth: 2000, perDay: 50000 }, ttlDays: 3, requireApproval: true, autoApproveBelow: 1500 } }),
    );
    expect(policy).toMatchObject({
      limits: { perAuth: 2000, perDay: 10000 },
      ttlDays: 3,
      requireApproval: true,
      autoApproveBelow: 1500,
    });
  });

  it("maps a customer card's SpendingLimit interval to its window; no interval is a total budget", () => {
    const daily = card({ limits: { amount: 7000, currency: 'usd', interval: 'daily' } });
    expect(cardLimitSet(effectivePolicy(undefined, undefined, daily), daily)).toEqual({ perDay: 7000 });
    const weekly = card({ limits: { amount: 9000, currency: 'usd', interval: 'weekly' } });
    expect(cardLimitSet(effectivePolicy(undefined, undefined, weekly), weekly)).toEqual({ perWeek: 9000 });
    const total = card({ limits: { amount: 9000, currency: 'usd', interval: null } });
    expect(cardLimitSet(effectivePolicy(undefined, undefined, total), total)).toEqual({ allTime: 9000 });
  });

  it("combines an agent's SpendingLimit with its policy limits", () => {
    expect(
      agentLimitSet({ policy: { limits: { perDay: 3000 } }, limits: { amount: 50000, currency: 'usd', interval: 'monthly' } }),
    ).toEqual({ perDay: 3000, perMonth: 50000 });
  });
});

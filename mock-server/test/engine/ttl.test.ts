import { afterEach, describe, expect, it } from 'vitest';
import { authorize } from '../../src/engine/transactions/authorize.js';
import { cardPolicySummary } from '../../src/engine/policy/policy-summary.js';
import { renderPolicySummary } from '../../src/variants/render/policy-summary.js';
import { EngineWorld } from './support/engine-world.js';

let world: EngineWorld;
afterEach(() => {
  expect(world.invalidEvents).toEqual([]);
});

describe('card time-to-live', () => {
  it('closes the card when ttlMinutes is reached: card.expired then card.closed', async () => {
    world = new EngineWorld();
    const { card } = world.setup({ card: { policy: { ttlMinutes: 30 } } });
    expect(world.card(card.id).expiresAt).toBe(card.createdAt + 30 * 60_000);
    await world.advance(29 * 60_000);
    expect(world.types()).toEqual([]);
    await world.advance(60_000);
    expect(world.types()).toEqual(['card.expired', 'card.closed']);
    expect(world.event('card.expired')).toMatchObject({
      action: 'close',
      previousStatus: 'active',
      newStatus: 'closed',
      expiresAt: card.createdAt + 30 * 60_000,
      ttlMinutes: 30,
      reason: 'ttl_expired',
    });
    expect(world.event('card.closed')).toMatchObject({ reason: 'ttl_expired', closedBy: 'system' });
    expect(world.card(card.id).status).toBe('closed');
  });

  it('freezes instead with ttlAction freeze, and the shorter of a customer ttlDays and card ttlMinutes applies', async () => {
    world = new EngineWorld();
    const { card } = world.setup({
      customer: { policy: { ttlDays: 1 } },
      card: { policy: { ttlMinutes: 2880, ttlAction: 'freeze' } },
    });
    await world.advance(86_400_000);
    expect(world.types()).toEqual(['card.expired']);
    expect(world.event('card.expired')).toMatchObject({ action: 'freeze', newStatus: 'frozen', ttlMinutes: 1440 });
    expect(world.card(card.id).status).toBe('frozen');
    await world.advance(86_400_000);
    expect(world.types()).toEqual(['card.expired']);
  });

  it('reports TTL, cooldown and remaining limits in the policy summary', async () => {
    world = new EngineWorld();
    const { card } = world.setup({
      card: { policy: { ttlDays: 30, cooldownMinutes: 5, limits: { perAuth: 5000, perDay: 20000 } } },
    });
    authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: { name: 'OpenAI' } });
    // As the API renders it (timestamps in ISO 8601).
    const summary = renderPolicySummary(cardPolicySummary(world.tenant, card.id), 'active');
    expect(summary).toMatchObject({
      cardId: card.id,
      usage: 'multi',
      ttl: { minutes: null, days: 30, isExpired: false, expiresAt: new Date(card.createdAt + 30 * 86_400_000).toISOString() },
      cooldown: {
        minutes: 5,
        isInCooldown: true,
        lastSpendAt: new Date(world.now()).toISOString(),
        cooldownEndsAt: new Date(world.now() + 300_000).toISOString(),
      },
      limits: {
        perAuth: 5000,
        perDay: 20000,
        perMonth: null,
        spentDay: 2500,
        spentMonth: 2500,
        remainingDay: 17500,
        remainingMonth: null,
      },
    });
    await world.advance(300_000);
    expect(cardPolicySummary(world.tenant, card.id).summary.cooldown.isInCooldown).toBe(false);
  });
});

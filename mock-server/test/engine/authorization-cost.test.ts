import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorize } from '../../src/engine/transactions/authorize.js';
import { evaluateSpendRequest } from '../../src/engine/decision/spend-evaluation.js';
import { countIndexVisits } from '../support/index-visits.js';
import { EngineWorld } from './support/engine-world.js';

const MINUTE = 60_000;

/**
 * Steps the engine's aggregates take for one authorization on a card that already has `prior` approved
 * transactions spread over the past 7 days (the baseline of the strict preset) (the last one a minute before), with every detector on (dry run, so
 * nothing is declined).
 */
function operationsForOneAuthorization(prior: number): { authorize: number; evaluate: number; indexVisits: number } {
  const world = new EngineWorld();
  const { card } = world.setup({ balance: 1_000_000_000 });
  world.risk({ preset: 'strict', dryRun: true });
  const start = world.now();
  const spacing = Math.floor((7 * 24 * 60 * MINUTE) / Math.max(prior, 1));
  for (let i = 0; i < prior; i++) {
    world.tenant.clock.moveTo(start + i * spacing);
    authorize(world.tenant, {
      cardId: card.id,
      amount: 100 + (i % 5000),
      merchant: { name: `Merchant ${i % 300}`, mcc: '5734' },
    });
  }
  const lastAt = world.now();
  world.tenant.clock.moveTo(lastAt + MINUTE);
  const meter = world.state.meter;
  const visits = countIndexVisits();
  const beforeEvaluate = meter.count;
  evaluateSpendRequest(world.tenant, { cardId: card.id, amount: 2500, merchant: { name: 'OpenAI', mcc: '5734' } });
  const evaluate = meter.count - beforeEvaluate;
  const beforeAuthorize = meter.count;
  authorize(world.tenant, { cardId: card.id, amount: 2500, merchant: { name: 'OpenAI', mcc: '5734' } });
  const indexVisits = visits.take();
  vi.restoreAllMocks();
  return { authorize: meter.count - beforeAuthorize, evaluate, indexVisits };
}

describe('authorization cost', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('does not grow with 10,000 prior transactions on the card (counted operations, not time)', () => {
    const empty = operationsForOneAuthorization(0);
    const small = operationsForOneAuthorization(2);
    const busy = operationsForOneAuthorization(10_000);
    // Once there is a baseline day, the same buckets and indexes are touched whatever the history; only the
    // duplicate index may evict up to 2 old entries.
    expect(busy.evaluate).toBe(small.evaluate);
    // No stored history is read either: the collections' indexes visit the same objects.
    expect(busy.indexVisits).toBe(small.indexVisits);
    expect(busy.authorize).toBeGreaterThanOrEqual(small.authorize);
    expect(busy.authorize).toBeLessThanOrEqual(small.authorize + 2);
    // Without any history the spend-spike window is not summed (no baseline yet): at most one window of 60
    // minute buckets less, plus the first fill of the rings.
    expect(Math.abs(busy.authorize - empty.authorize)).toBeLessThanOrEqual(60 + 60 + 168 + 91);
  });
});

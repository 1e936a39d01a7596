import { beforeAll, describe, expect, it } from 'vitest';
import { ClockTracker, clientFor, newTestKey, type ScenarioContext } from '../../src/scenario/context.js';
import { STEPS } from '../../src/scenario/steps.js';
import { loadSpecs, VARIANTS } from '../../src/spec.js';
import { useContractChecks, type Harness } from './harness.js';

/**
 * The scenario of src/scenario/steps.ts for both variants (each in its own organization, so each webhook receives
 * its variant's envelope), then the coverage verdict of the run.
 */
export function defineScenarioSuite(name: string, start: (name: string) => Promise<Harness>): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await start(name);
  });
  useContractChecks(() => harness);

  for (const variant of VARIANTS) {
    describe(`${variant} variant`, () => {
      let ctx: ScenarioContext | undefined;
      beforeAll(() => {
        const h = harness as Harness;
        const apiKey = newTestKey();
        const baseUrl = h.baseUrl(variant);
        const clock = new ClockTracker();
        h.receiver.useClock(variant, clock.window);
        ctx = {
          variant,
          vc: clientFor(variant, { apiKey, baseUrl, fetch: h.recorder.fetch }),
          apiKey,
          baseUrl,
          fetch: h.recorder.fetch,
          receiver: h.receiver,
          clock,
          ids: new Map(),
        };
      });
      for (const step of STEPS) it(step.name, () => step.run(ctx as ScenarioContext));
    });
  }

  it('coverage: every operation of both variants answered, every event type delivered in both envelopes', () => {
    const missing = (harness as Harness).recorder.coverage.missing(loadSpecs());
    expect(missing).toEqual({ operations: [], events: [] });
  });
}

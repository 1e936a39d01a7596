import { createMockServer } from '@cardrail/mock-server';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { badBodies, badPathParams, badQueries, FUZZ_SEED, type BadRequestCase } from '../src/fuzz.js';
import { authHeaders, buildBadRequest } from '../src/request-builder.js';
import { ContractRecorder } from '../src/recorder.js';
import { snapshotOrganization } from '../src/state-snapshot.js';
import { loadSpecs, VARIANTS } from '../src/spec.js';
import { WebhookReceiver } from '../src/webhook-receiver.js';
import { useContractChecks, type Harness } from './support/harness.js';
import { newSeededOrganization, unlistedObjects, type SeededIds } from './support/seed.js';

/**
 * For every operation of both variants, generated bad bodies, query strings and path ids. Each must be
 * refused with a documented 4xx in the spec's error format (the recorder checks status and body), never a 5xx,
 * and the organization's state, read through every list endpoint, must be byte-for-byte unchanged afterwards.
 * Seeded (FUZZ_SEED) and reproducible; FUZZ_RUNS scales the number of cases.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const RUNS_PER_KIND: Record<string, number> = {
  body: Math.ceil(6 * RUNS),
  query: Math.ceil(4 * RUNS),
  path: Math.ceil(2 * RUNS),
};
const BASE = 'http://mock.invalid/v1';

// A frozen clock: the state snapshot reads the test clock, which then moves only when a request moves it.
const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00.000Z' });
const recorder = new ContractRecorder({ suite: 'fuzz', baseFetch: (request) => mock.handle(request) });
const harness: Harness = {
  name: 'fuzz',
  recorder,
  receiver: new WebhookReceiver(recorder),
  baseUrl: () => BASE,
  idle: () => mock.idle(),
  stop: async () => mock.reset(),
};
useContractChecks(() => harness);
const specs = loadSpecs();

for (const variant of VARIANTS) {
  describe(`fuzzing bad input, ${variant} variant`, () => {
    let apiKey = '';
    let ids: SeededIds = new Map();
    beforeAll(async () => {
      const seeded = await newSeededOrganization(harness, variant);
      ({ apiKey, ids } = seeded);
      await mock.idle();
      // Every kind of object exists, so bad input meets real objects rather than stopping at a 404.
      expect(seeded.failures).toEqual([]);
      expect(recorder.takeNewViolations()).toEqual([]);
    });

    const snapshot = () =>
      snapshotOrganization(
        (request) => mock.handle(request),
        BASE,
        authHeaders(variant, apiKey),
        specs[variant],
        unlistedObjects(ids),
      );

    for (const op of specs[variant].operations) {
      const kinds: Array<[string, 'body' | 'query' | 'path', fc.Arbitrary<BadRequestCase> | undefined]> = [
        ['bad bodies', 'body', badBodies(op, specs[variant])],
        ['bad query parameters', 'query', badQueries(op, specs[variant])],
        ['unknown path ids', 'path', badPathParams(op)],
      ];
      for (const [label, kind, cases] of kinds) {
        if (!cases) continue;
        it(`${op.operationId} (${op.method.toUpperCase()} ${op.path}): ${label} get a documented 4xx and change nothing`, async () => {
          await fc.assert(
            fc.asyncProperty(cases, async (c) => {
              recorder.coverage.count(`generated ${kind} cases`);
              const before = await snapshot();
              const from = recorder.exchanges.length;
              const response = await recorder.fetch(buildBadRequest(op, BASE, ids, authHeaders(variant, apiKey), c));
              const exchange = recorder.exchanges[from];
              expect({ kind: c.kind, status: response.status, violations: exchange?.violations ?? [] }).toEqual({
                kind: c.kind,
                status: expect.toSatisfy((s: number) => s >= 400 && s < 500, 'a 4xx'),
                violations: [],
              });
              expect(await snapshot(), `state changed after ${c.kind}`).toBe(before);
            }),
            { seed: FUZZ_SEED, numRuns: RUNS_PER_KIND[kind], endOnFailure: true },
          );
        });
      }
    }
  });
}

describe('fuzzing totals', () => {
  it('ran a few hundred generated cases', () => {
    const total = ['body', 'query', 'path'].reduce((n, kind) => n + recorder.coverage.counter(`generated ${kind} cases`), 0);
    expect(total).toBeGreaterThanOrEqual(300);
  });
});

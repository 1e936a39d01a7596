// What a test suite pays to seed once and restore before each test: a state of 10,000 objects created through the
// API in-process (mock.client(): customers, agents and cards, each with the event its creation emits), then
// mock.snapshot() and mock.restore(snapshot) into a fresh mock, against creating the same objects again.
// Target: restoring takes well under the time to create (creating takes at least ten times as long).
import { pathToFileURL } from 'node:url';
import { formatCount, formatMs, formatRatio } from '../lib/format.mjs';
import { mockEntry } from '../lib/paths.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'Test kit: seed once, restore before each test';

const PLANS = {
  quick: { customers: 500, runs: 1, restores: 3 },
  full: { customers: 2_500, runs: 3, restores: 7 },
};
/** Creating must take at least this many times as long as restoring. */
const TARGET_RATIO = 10;

const { createMockServer } = await import(pathToFileURL(mockEntry).href);

/**
 * Creates `customers` customers, each with an agent and two cards (four objects per customer) through a typed
 * in-process client; the elapsed milliseconds and the mock.
 */
async function seed(customers) {
  const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
  const client = mock.client();
  const started = performance.now();
  for (let i = 0; i < customers; i++) {
    const customer = await client.customers.create({ email: `bench${i}@example.com` });
    const agent = await client.agents.create({ customerId: customer.id, name: `Agent ${i}` });
    await client.cards.create({ customerId: customer.id, agentId: agent.id });
    await client.cards.create({ customerId: customer.id, agentId: agent.id });
  }
  return { ms: performance.now() - started, mock, client };
}

/** Records in a snapshot, all collections of all tenants (objects, events, keys). */
function recordCount(snapshot) {
  let count = 0;
  for (const tenant of snapshot.tenants) for (const entries of Object.values(tenant.collections)) count += entries.length;
  return count;
}

export async function run({ quick, log }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  const objects = plan.customers * 4;
  const createMs = [];
  const restoreMs = [];
  const snapshotMs = [];
  let records = 0;
  let jsonBytes = 0;
  for (let run = 0; run < plan.runs; run++) {
    const seeded = await seed(plan.customers);
    createMs.push(seeded.ms);
    const takenAt = performance.now();
    const snapshot = seeded.mock.snapshot();
    snapshotMs.push(performance.now() - takenAt);
    records = recordCount(snapshot);
    jsonBytes = JSON.stringify(snapshot).length;
    const fresh = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
    for (let i = 0; i < plan.restores; i++) {
      const started = performance.now();
      fresh.restore(snapshot);
      restoreMs.push(performance.now() - started);
    }
    // The restored mock answers: the cards are there, listed through the seeding client's key.
    const cards = await seeded.client.cards.list({ limit: 1 });
    if (cards.data.length !== 1) throw new Error('testkit bench: the seeded mock lost its cards');
    seeded.mock.reset();
    fresh.reset();
    log(
      `testkit: run ${run + 1}/${plan.runs}: created ${formatCount(objects)} objects in ${formatMs(seeded.ms)}, restore median ${formatMs(median(restoreMs.slice(-plan.restores)))}`,
    );
  }
  const create = median(createMs);
  const restore = median(restoreMs);
  return {
    rows: [
      {
        measure: `Restore a snapshot of ${formatCount(objects)} objects (mock.restore), vs creating them through the API`,
        ours: `${formatMs(restore)} (snapshot taken in ${formatMs(median(snapshotMs))})`,
        baseline: `creating them: ${formatMs(create)}`,
        ratio: formatRatio(create / restore),
        target: `>= ${TARGET_RATIO}x`,
        met: create / restore >= TARGET_RATIO,
      },
    ],
    notes: [
      `${formatCount(plan.customers)} customers, each with an agent and two cards, created one request at a time through mock.client() (the typed SDK client in-process, so validation, events and rendering as for any request), ${plan.runs} run(s); the snapshot holds ${formatCount(records)} records in all (the objects, the event each creation emitted, the API key) and is ${formatCount(jsonBytes)} characters as JSON. Each run restores it ${plan.restores} times into another mock (restore copies the snapshot, rebuilds the derived state and re-arms due work); medians. Built mock (mock-server/dist).`,
    ],
  };
}

// The in-process overhead of the mock. The built SDK calls cards.retrieve(id) in a loop, one call at a
// time, through MSW: once with the mock's handlers (routing, key lookup, validation, the card store), once with a
// trivial MSW handler that returns the same card JSON. The difference is what our handlers cost a test suite per
// call; MSW and the SDK cost the same in both. No target: it is an overhead figure.
import { pathToFileURL } from 'node:url';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { formatCount, formatMs, formatRate, formatRatio } from '../lib/format.mjs';
import { mockMswAdapter, sdkEntry } from '../lib/paths.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'In-process (MSW): SDK calls per second';

const PLANS = {
  quick: { warmupMs: 300, durationMs: 1_000, runs: 1 },
  full: { warmupMs: 1_000, durationMs: 3_000, runs: 5 },
};
const BASE_URL = 'http://127.0.0.1:4010/v1';
const API_KEY = 'sk_test_benchmsw00001';

const { createHandlers } = await import(pathToFileURL(mockMswAdapter).href);
const { Cardrail } = await import(pathToFileURL(sdkEntry).href);

/** Sequential calls for `durationMs`; calls per second. */
async function retrieveLoop(client, cardId, durationMs) {
  let calls = 0;
  const started = performance.now();
  const end = started + durationMs;
  while (performance.now() < end) {
    await client.cards.retrieve(cardId);
    calls++;
  }
  return calls / ((performance.now() - started) / 1000);
}

/** Runs `body(client)` with an MSW server of `handlers` listening, and always closes it (MSW patches globals). */
async function withMsw(handlers, body) {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    return await body(new Cardrail({ apiKey: API_KEY, baseUrl: BASE_URL }));
  } finally {
    server.close();
  }
}

/** A fresh mock with one card; measures, then forgets the mock's state. */
async function measureOurs(plan) {
  const mock = createHandlers();
  try {
    return await withMsw(mock.handlers, async (client) => {
      const customer = await client.customers.create({ email: 'bench@example.com' });
      const agent = await client.agents.create({ customerId: customer.id, name: 'Benchmark agent' });
      const card = await client.cards.create({ customerId: customer.id, agentId: agent.id });
      const captured = await client.cards.retrieve(card.id);
      await retrieveLoop(client, card.id, plan.warmupMs);
      return { rate: await retrieveLoop(client, card.id, plan.durationMs), card: captured };
    });
  } finally {
    mock.reset();
  }
}

async function measureTrivial(plan, card) {
  const trivial = http.get('*/v1/cards/:id', () => HttpResponse.json(card));
  return withMsw([trivial], async (client) => {
    await retrieveLoop(client, card.id, plan.warmupMs);
    return retrieveLoop(client, card.id, plan.durationMs);
  });
}

export async function run({ quick, log }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  const ours = [];
  const trivial = [];
  for (let i = 0; i < plan.runs; i++) {
    const measured = await measureOurs(plan);
    ours.push(measured.rate);
    trivial.push(await measureTrivial(plan, measured.card));
    log(
      `msw: run ${i + 1}/${plan.runs}: mock handlers ${formatCount(measured.rate)}/s, trivial handler ${formatCount(trivial[i])}/s`,
    );
  }
  const oursRate = median(ours);
  const trivialRate = median(trivial);
  const addedMs = 1000 / oursRate - 1000 / trivialRate;
  return {
    rows: [
      {
        measure: 'SDK cards.retrieve(id) through MSW, one call at a time',
        ours: `${formatRate(oursRate, 'calls/s')} (${formatMs(1000 / oursRate)}/call)`,
        baseline: `trivial MSW handler: ${formatRate(trivialRate, 'calls/s')} (${formatMs(1000 / trivialRate)}/call)`,
        ratio: formatRatio(oursRate / trivialRate),
        target: '',
        met: null,
      },
    ],
    notes: [
      `The mock's handlers add ${formatMs(Math.max(addedMs, 0))} per call over a handler that only returns the card (\`http.get('*/v1/cards/:id', () => HttpResponse.json(card))\`, the same JSON our mock answered).`,
      `Built SDK (sdk/dist) and mock (mock-server/dist), MSW setupServer in the bench process, opened and closed around each run; ${plan.runs} run(s) of ${plan.durationMs / 1000} s per variant after a ${plan.warmupMs / 1000} s warm-up, interleaved; medians.`,
    ],
  };
}

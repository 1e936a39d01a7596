// The in-process overhead of the mock. The built SDK calls cards.retrieve(id) in a loop, one call at a
// time, through MSW: once with the mock's handlers (routing, key lookup, validation, the card store), once with a
// trivial MSW handler that returns the same card JSON. The difference is what our handlers cost a test suite per
// call; MSW and the SDK cost the same in both. No target: it is an overhead figure.
//
// And what a test suite pays to start the mock: in fresh processes (servers/msw-start-probe.mjs), importing
// @cardrail/mock-server/msw and calling createHandlers(), beyond importing msw itself, measured side by side with
// processes that import msw alone. Target: at most 150 ms added.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnChild } from '../lib/children.mjs';
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
const START_PLANS = { quick: 5, full: 15 };
const START_TARGET_MS = 150;
const startProbe = join(dirname(fileURLToPath(import.meta.url)), '..', 'servers', 'msw-start-probe.mjs');
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
  server.listen({ onUnhandledFrame: 'error' }); // msw 3 (msw 2 named it onUnhandledRequest)
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

/** One fresh process of the start-up probe; its JSON timings. */
async function probe(args) {
  const child = spawnChild(process.execPath, [startProbe, mockMswAdapter, ...args]);
  const { code } = await child.exited;
  const line = child.output().trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`msw start-up probe failed (exit ${code}):\n${child.output()}`);
  return JSON.parse(line);
}

/** Start-up, process by process, the msw-only and the full probe interleaved so that machine noise hits both. */
async function measureStart(runs, log) {
  const mswAlone = [];
  const full = [];
  for (let i = 0; i < runs; i++) {
    mswAlone.push((await probe(['--msw-only'])).msw);
    full.push(await probe([]));
  }
  const added = full.map((times) => times.import + times.create);
  log(`msw: start-up: msw alone ${formatMs(median(mswAlone))}, ours added ${formatMs(median(added))} (${runs} processes each)`);
  return {
    mswAlone: median(mswAlone),
    mswInFull: median(full.map((times) => times.msw)),
    added: median(added),
    importMs: median(full.map((times) => times.import)),
    createMs: median(full.map((times) => times.create)),
    firstRequestMs: median(full.map((times) => times.firstRequest)),
    addedCpu: median(full.map((times) => times.addedCpu)),
    range: [Math.min(...added), Math.max(...added)],
  };
}

export async function run({ quick, log }) {
  const start = await measureStart(quick ? START_PLANS.quick : START_PLANS.full, log);
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
        measure: 'Start: import @cardrail/mock-server/msw + createHandlers(), beyond importing msw',
        ours: `${formatMs(start.added)} (import ${formatMs(start.importMs)}, create ${formatMs(start.createMs)}; CPU ${formatMs(start.addedCpu)})`,
        baseline: `import msw alone: ${formatMs(start.mswAlone)}`,
        ratio: formatRatio(start.mswAlone / start.added),
        target: `<= ${START_TARGET_MS} ms added`,
        met: start.added <= START_TARGET_MS,
      },
      {
        measure: 'Start: first request after createHandlers() (GET /v1/cards?limit=1 through handle; informational)',
        ours: formatMs(start.firstRequestMs),
        baseline: '',
        ratio: '',
        target: '',
        met: null,
      },
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
      `Start-up: medians of ${quick ? START_PLANS.quick : START_PLANS.full} fresh processes each (scripts/bench/servers/msw-start-probe.mjs), interleaved: one imports msw alone (the baseline), the other imports msw, then the built mock-server/dist/msw.mjs, calls createHandlers() and answers one request; "added" is its import plus create (range ${formatMs(start.range[0])} to ${formatMs(start.range[1])}), msw itself took ${formatMs(start.mswInFull)} in those processes. The target is judged on the clock; the CPU time (user and system) of the same span is given beside it, as it varies less with other load on the machine. The spec documents and Ajv are not loaded: routing comes from a generated table and each operation's precompiled checks load on its first request, which the first-request row includes.`,
      `The mock's handlers add ${formatMs(Math.max(addedMs, 0))} per call over a handler that only returns the card (\`http.get('*/v1/cards/:id', () => HttpResponse.json(card))\`, the same JSON our mock answered).`,
      `Built SDK (sdk/dist) and mock (mock-server/dist), MSW setupServer in the bench process, opened and closed around each run; ${plan.runs} run(s) of ${plan.durationMs / 1000} s per variant after a ${plan.warmupMs / 1000} s warm-up, interleaved; medians.`,
    ],
  };
}

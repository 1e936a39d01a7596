// What the SDK itself costs a call: `cards.retrieve(id)` through `mock.client()` (the typed client on the mock's
// `handle`, in-process: options, URL, headers, retries and timeout, the Request, reading and parsing the answer,
// errors, the APIPromise) against the same GET sent as a bare `Request` to `mock.handle` with its JSON read, one call
// at a time, in the same process, runs interleaved. The mock's own work is in both; the ratio is the SDK's share.
// Target: at least 0.30x (1.3 times the 0.23x the SDK reached when its calls went through a second openapi-fetch
// client and a retrying fetch that read and rebuilt each request and answer).
import { pathToFileURL } from 'node:url';
import { formatCount, formatMs, formatRate, formatRatio } from '../lib/format.mjs';
import { mockEntry } from '../lib/paths.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'SDK: calls per second through mock.client(), against bare requests to mock.handle';

const PLANS = {
  quick: { warmupMs: 500, durationMs: 1_000, runs: 3 },
  full: { warmupMs: 1_000, durationMs: 3_000, runs: 7 },
};
const TARGET_RATIO = 0.3;
const API_KEY = 'sk_test_benchsdkcalls01';

const { createMockServer } = await import(pathToFileURL(mockEntry).href);

/** Calls `call` one at a time for `durationMs`; calls per second. */
async function loop(call, durationMs) {
  let calls = 0;
  const started = performance.now();
  const end = started + durationMs;
  while (performance.now() < end) {
    await call();
    calls++;
  }
  return calls / ((performance.now() - started) / 1000);
}

/** A mock with one card, and the two ways of reading it, checked to answer the same card. */
async function setUp() {
  const mock = createMockServer({ frozenClock: '2026-11-21T12:00:00Z' });
  const client = mock.client({ apiKey: API_KEY });
  const customer = await client.customers.create({ email: 'bench@example.com' });
  const agent = await client.agents.create({ customerId: customer.id, name: 'Benchmark agent' });
  const card = await client.cards.create({ customerId: customer.id, agentId: agent.id });
  const url = `${client.baseUrl}/cards/${card.id}`;
  const headers = { Authorization: `Bearer ${API_KEY}` };
  const sdk = () => client.cards.retrieve(card.id);
  const bare = async () => (await mock.handle(new Request(url, { headers }))).json();
  const [viaSdk, viaHandle] = await Promise.all([sdk(), bare()]);
  if (viaSdk.id !== card.id || viaHandle.id !== card.id) {
    throw new Error(`sdk-calls bench: the SDK read ${viaSdk.id}, the bare request ${viaHandle.id}, expected ${card.id}`);
  }
  return { mock, sdk, bare };
}

export async function run({ quick, log }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  const { mock, sdk, bare } = await setUp();
  const sdkRates = [];
  const bareRates = [];
  const ratios = [];
  try {
    await loop(sdk, plan.warmupMs);
    await loop(bare, plan.warmupMs);
    for (let i = 0; i < plan.runs; i++) {
      // Alternating which goes first spreads a drift of the machine's speed over both.
      const [first, second] = i % 2 === 0 ? [sdk, bare] : [bare, sdk];
      const a = await loop(first, plan.durationMs);
      const b = await loop(second, plan.durationMs);
      const [sdkRate, bareRate] = first === sdk ? [a, b] : [b, a];
      sdkRates.push(sdkRate);
      bareRates.push(bareRate);
      ratios.push(sdkRate / bareRate);
      log(
        `sdk-calls: run ${i + 1}/${plan.runs}: SDK ${formatCount(sdkRate)}/s, bare ${formatCount(bareRate)}/s, ${formatRatio(sdkRate / bareRate)}`,
      );
    }
  } finally {
    mock.reset();
  }
  const ratio = median(ratios);
  const sdkRate = median(sdkRates);
  const bareRate = median(bareRates);
  return {
    rows: [
      {
        measure: 'cards.retrieve(id) through mock.client(), one call at a time, vs the same GET as a bare Request to mock.handle',
        ours: `${formatRate(sdkRate, 'calls/s')} (${formatMs(1000 / sdkRate)}/call)`,
        baseline: `bare Request to mock.handle, JSON read: ${formatRate(bareRate, 'req/s')} (${formatMs(1000 / bareRate)}/request)`,
        ratio: formatRatio(ratio),
        target: `>= ${TARGET_RATIO.toFixed(2)}x`,
        met: ratio >= TARGET_RATIO,
      },
    ],
    notes: [
      `Built mock (mock-server/dist) and the SDK it depends on (sdk/dist), in the bench process; ${plan.runs} pair(s) of runs of ${plan.durationMs / 1000} s after a ${plan.warmupMs / 1000} s warm-up of each, which goes first alternating; the ratio is the median of each pair's ratio (range ${formatRatio(Math.min(...ratios))} to ${formatRatio(Math.max(...ratios))}), the rates are medians. The SDK adds ${formatMs(Math.max(1000 / sdkRate - 1000 / bareRate, 0))} per call.`,
    ],
  };
}

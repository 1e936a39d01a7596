// Child process of suites/scaling.mjs (run with `node --expose-gc --import tsx`, on the mock's sources: the seeding
// below calls the engine's own functions, which the built package bundles out of reach): builds one organization in a fresh mock with
// `prior` approved transactions, either all on one card (shape `card`) or spread over many cards and agents (shape
// `organization`), then times authorizations through `mock.handle()` and weighs the heap. One process per shape and
// size, so that each heap holds exactly one history.
//
// Input: one JSON argument { shape, prior, warmup, timed, rounds, seed: 'engine' | 'http' }.
// Protocol: once the history is recorded the child prints `SEEDED` and waits for SIGUSR2; each signal runs one
// round of timed authorizations (timed / rounds of them), answered by `ROUND <n>`, or after the last round by
// `RESULT <json>`, and the child exits. The parent records the histories of all children at once, then gives the
// children their rounds in turn: each child is timed alone, and the sizes' samples are interleaved in time, so
// that a noisy moment of the machine does not fall on one size only. Errors go to stderr.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { percentile } from '../lib/stats.mjs';

const srcDir = join(import.meta.dirname, '..', '..', '..', 'mock-server', 'src');
const srcModule = (path) => import(pathToFileURL(join(srcDir, path)).href);

const API_KEY = 'sk_test_scalingbench0001';
const HEADERS = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' };
const ORIGIN = 'http://127.0.0.1:4010/v1';
/** The history is spread over the strict preset's spend-spike baseline, so every aggregate window holds some of it. */
const HISTORY_MS = 7 * 24 * 60 * 60_000;
/** The history's clock moves in at most this many steps (one every 10 minutes over 7 days). */
const HISTORY_STEPS = 1_008;
/** The organization shape: prior transactions spread over this many cards (fewer when there are fewer)... */
const ORGANIZATION_CARDS = 1_000;
/** ...and this many cards per agent. */
const CARDS_PER_AGENT = 10;
/**
 * Test time between two authorizations through the API (not timed itself): the aggregates' minute and hour windows
 * move on as in real use, and 20 an hour stays below the spend-spike threshold even against a history of 10, so
 * every size raises the same anomalies (none).
 */
const TIMED_STEP_SECONDS = 180;

const options = JSON.parse(process.argv[2] ?? '{}');
if (typeof globalThis.gc !== 'function') throw new Error('scaling-worker needs node --expose-gc');

const { createMockServer } = await srcModule('index.ts');
const mock = createMockServer({ frozenClock: '2026-11-23T12:00:00.000Z' });

async function call(method, path, body) {
  const response = await mock.handle(
    new Request(`${ORIGIN}${path}`, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  if (response.status >= 300)
    throw new Error(`setup ${method} /v1${path}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
  return response.json();
}

/**
 * Amount and merchant of the i-th authorization: varied (amounts scattered over 1.00 to 50.98, not rising with i, so
 * that the first ten are a typical baseline), and no two alike within a duplicate window.
 */
function spend(cardId, i) {
  return { cardId, amount: 100 + ((i * 7_919) % 4_999), currency: 'usd', merchant: { name: `Merchant ${i % 307}`, mcc: '5734' } };
}

function expectApproved(transaction, what) {
  if (transaction.status !== 'pending') {
    throw new Error(`${what} was not approved: status ${transaction.status}, declinedReason ${transaction.declinedReason}`);
  }
}

/**
 * The organization: one customer funded far beyond the run, and the strict risk preset (every detector that reads
 * the card's history on: duplicates, velocity, spend spike) in dry run, so nothing is ever frozen or declined. The
 * thresholds are the spec's maxima, which this stream of spend never crosses, and the two detectors that would flag
 * every authorization of it whatever the history (unattested: no credential access first; merchant drift: varied
 * merchants) are off: each authorization is a plain approval, storing the same at every size.
 */
async function createOrganization() {
  const customer = await call('POST', '/customers', { email: 'scaling@example.com' });
  await call('POST', '/simulate/deposits', { customerId: customer.id, amount: 100_000_000_000 });
  await call('PATCH', '/settings/risk', {
    preset: 'strict',
    dryRun: true,
    velocityLimit: { maxPerHour: 100_000, maxPerDay: 1_000_000 },
    spendSpike: { multiplier: 1_000 },
    unattestedSpend: { enabled: false },
    merchantDrift: { enabled: false },
  });
  return customer;
}

async function createCards(customerId, count) {
  const cards = [];
  let agent;
  for (let i = 0; i < count; i++) {
    if (i % CARDS_PER_AGENT === 0)
      agent = await call('POST', '/agents', { customerId, name: `Scaling agent ${i / CARDS_PER_AGENT}` });
    cards.push(await call('POST', '/cards', { customerId, agentId: agent.id }));
  }
  return cards;
}

/**
 * How one prior transaction is recorded. `http`: POST /v1/simulate/authorize through `mock.handle()`. `engine`:
 * the engine's `authorize()`, the function that operation's handler calls, with the same body, skipping the HTTP
 * steps (routing, key lookup, validation, the Response), which store nothing. Same records, same events, same
 * aggregates, in a third of the time, which keeps the quick bench under its minute.
 */
async function seeder(kind) {
  const throughHttp = {
    kind: 'http',
    record: async (body) => {
      const response = await mock.handle(
        new Request(`${ORIGIN}/simulate/authorize`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) }),
      );
      if (response.status !== 200) throw new Error(`seeding: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
      return response.json();
    },
  };
  if (kind === 'http') return throughHttp;
  try {
    const [{ authorize }, { renderTransaction }] = await Promise.all([
      srcModule('engine/transactions/authorize.ts'),
      srcModule('variants/render/engine-records.ts'),
    ]);
    if (typeof authorize !== 'function' || typeof renderTransaction !== 'function') {
      throw new Error('authorize() or renderTransaction() not exported');
    }
    const tenant = mock.tenantOf(API_KEY);
    // The body is parsed from JSON and the answer rendered and serialized, as the HTTP path does: V8 stores parsed
    // strings, and strings that were serialized once, more compactly, and the history must weigh what it weighs
    // when recorded through the API.
    const record = (body) => {
      const transaction = authorize(tenant, JSON.parse(JSON.stringify(body)));
      JSON.stringify(renderTransaction(transaction));
      return transaction;
    };
    return { kind: 'engine', record };
  } catch (error) {
    // The engine's modules are internal and may move; the public path still records the same history.
    process.stderr.write(`scaling-worker: engine seeding unavailable (${error.message}), seeding through mock.handle()\n`);
    return throughHttp;
  }
}

/** `prior` approved authorizations over `cards` in turn, their test times spread evenly over the past 7 days. */
async function seedHistory(cards, prior, kind) {
  const { kind: used, record } = await seeder(kind);
  const steps = Math.min(HISTORY_STEPS, prior);
  const stepSeconds = HISTORY_MS / steps / 1000;
  let done = 0;
  for (let step = 0; step < steps; step++) {
    const end = Math.round(((step + 1) * prior) / steps);
    for (; done < end; done++) {
      const card = cards[done % cards.length];
      expectApproved(await record(spend(card.id, done)), `prior authorization ${done + 1} of ${prior}`);
    }
    await mock.clock.advance(stepSeconds);
  }
  return used;
}

/** Heap in use after a full, forced collection: what the objects alive at this point occupy. */
function heapUsed() {
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/**
 * One authorization through the API, checked approved; resolves with the time from handle() to the body read.
 * The test clock then moves on (untimed).
 */
async function authorizeThroughApi(cardId, i) {
  const request = new Request(`${ORIGIN}/simulate/authorize`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(spend(cardId, i)),
  });
  const before = performance.now();
  const response = await mock.handle(request);
  const text = await response.text();
  const elapsed = performance.now() - before;
  if (response.status !== 200) throw new Error(`authorization ${i}: HTTP ${response.status} ${text.slice(0, 300)}`);
  expectApproved(JSON.parse(text), `authorization ${i}`);
  await mock.clock.advance(TIMED_STEP_SECONDS);
  return elapsed;
}

/**
 * Warms the JIT on a throwaway organization, forgotten (`reset()`) before the history is recorded: the HTTP path
 * needs some 3,000 authorizations to reach its steady speed, and warming up on the measured card would add to its
 * history.
 */
async function warmUp(count) {
  const customer = await createOrganization();
  const [card] = await createCards(customer.id, 1);
  for (let i = 0; i < count; i++) await authorizeThroughApi(card.id, i);
}

/** Resolves when the parent sends SIGUSR2, the child's turn (see the protocol above). */
function waitForTurn() {
  // A signal listener alone does not keep the event loop alive; the timer does, until the signal comes.
  const keepAlive = setInterval(() => {}, 60_000);
  return new Promise((resolve) =>
    process.once('SIGUSR2', () => {
      clearInterval(keepAlive);
      resolve();
    }),
  );
}

async function main() {
  const { shape, prior, timed, rounds } = options;
  const { engineState } = await srcModule('engine/engine-state.ts').catch(() => ({}));
  await warmUp(options.warmup);
  mock.reset();
  const started = performance.now();
  const customer = await createOrganization();
  const historyCards = await createCards(customer.id, shape === 'card' ? 1 : Math.min(ORGANIZATION_CARDS, prior));
  const seed = await seedHistory(historyCards, prior, options.seed);
  const seedMs = performance.now() - started;
  // The card authorized: the one holding the history, or a fresh card of the first agent in the organization.
  const target =
    shape === 'card'
      ? historyCards[0]
      : await call('POST', '/cards', { customerId: customer.id, agentId: historyCards[0].agentId });
  const meter = engineState?.(mock.tenantOf(API_KEY))?.meter;
  const latencies = new Float64Array(timed);
  let events = 0;
  mock.events.subscribe(() => events++);

  // Settled now, so that nothing of the recording runs on while another child is being timed. From here on the
  // child only runs its rounds: the heap grows by what the timed authorizations keep, and nothing else.
  const heapBefore = heapUsed();
  const operationsBefore = meter?.count;
  const eventsBefore = events;
  // Each turn is listened for before it is asked for: an unhandled SIGUSR2 would end the process.
  let turn = waitForTurn();
  process.stdout.write('SEEDED\n');
  let done = 0;
  for (let round = 1; round <= rounds; round++) {
    await turn;
    const end = Math.round((round * timed) / rounds);
    for (; done < end; done++) latencies[done] = await authorizeThroughApi(target.id, prior + done);
    if (round < rounds) {
      turn = waitForTurn();
      process.stdout.write(`ROUND ${round}\n`);
    }
  }
  const operations = meter ? (meter.count - operationsBefore) / timed : null;
  // Events are what an authorization stores besides its transaction: the same count at every size is the sign
  // that the same work was done (the same anomalies raised).
  const eventsPerAuthorization = (events - eventsBefore) / timed;
  const heapAfter = heapUsed();

  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const result = {
    shape,
    prior,
    seed,
    historyCards: historyCards.length,
    seedMs,
    medianUs: percentile(sorted, 0.5) * 1000,
    p99Us: percentile(sorted, 0.99) * 1000,
    heapWithHistory: heapBefore,
    retainedPerAuthorization: (heapAfter - heapBefore) / timed,
    operations,
    eventsPerAuthorization,
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

await main();

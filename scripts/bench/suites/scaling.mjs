// Scaling (issue "Benchmarks", item 5): authorization latency and memory with 10, 1,000 and 100,000 prior
// transactions, on the card authorized and spread over the organization. Target: the figure with the largest history
// stays under 1.5x the figure with the smallest, for the median latency and for the heap each authorization retains.
//
// Each shape and size runs in its own `node --expose-gc` child (suites/scaling-worker.mjs), so that its heap holds
// exactly one history:
// - "on the card": the prior transactions all on one card, which is then authorized;
// - "in the organization": spread round-robin over up to 1,000 cards of 10 per agent, then a fresh card of the
//   first agent is authorized.
// The child warms the JIT on a throwaway organization and forgets it, funds one customer far beyond the run, sets
// the strict risk preset in dry run (see the worker for the exact settings), records the history with its test times
// spread over the 7 days before, then authorizes through `mock.handle(new Request(... POST /v1/simulate/authorize
// ...))` in-process, each authorization timed alone from handle() to its body read. Every authorization, prior ones
// included, must be approved, or the child fails. Heap: `heapUsed` after a forced full GC, before and after the
// timed authorizations. The engine's operation meter (counted aggregate steps) is read around the timed ones.
//
// The six children record their histories at the same time (most of the suite's time); then each in turn runs a
// round of its timed authorizations while the others wait idle (SIGUSR2 gives the turn), round after round, so
// that every child is timed alone and the sizes' samples are spread over the same stretch of time.
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { spawnChild } from '../lib/children.mjs';
import { formatMs, formatRatio } from '../lib/format.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'Scaling with history: authorization latency and memory';

const WORKER = join(import.meta.dirname, 'scaling-worker.mjs');
const SIZES = [10, 1_000, 100_000];
const SHAPES = [
  { shape: 'card', label: 'on the card' },
  { shape: 'organization', label: 'in the organization' },
];
const PLANS = {
  quick: { warmup: 3_000, timed: 1_000, rounds: 4, repeats: 1 },
  full: { warmup: 5_000, timed: 2_000, rounds: 8, repeats: 3 },
};
const TARGET_RATIO = 1.5;
const CHILD_TIMEOUT_MS = 180_000;
/**
 * How prior transactions are recorded: `engine` (default) calls the engine's authorize() directly, the function
 * the operation's handler calls; `http` goes through mock.handle(), several times slower.
 */
const SEED = process.env.CARDRAIL_BENCH_SCALING_SEED === 'http' ? 'http' : 'engine';

const countFormat = new Intl.NumberFormat('en-US');

function formatUs(us) {
  if (us < 10) return `${us.toFixed(1)} us`;
  return us < 1000 ? `${Math.round(us)} us` : formatMs(us / 1000);
}

function formatBytes(bytes) {
  if (Math.abs(bytes) < 1024) return `${Math.round(bytes)} B`;
  if (Math.abs(bytes) < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 2 : 1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(bytes < 100 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** Starts the child of one shape and size (see the worker for its protocol). */
function startChild(job) {
  const child = spawnChild(process.execPath, ['--expose-gc', '--import', 'tsx', WORKER, JSON.stringify(job)]);
  const failure = (status) => {
    const lines = child.output().trim().split('\n');
    // The report shows the first line of a suite's error: the child's own error message belongs there.
    const reason = lines.findLast((line) => /^\w*Error\b/.test(line)) ?? 'no error message';
    return new Error(
      `scaling worker (${job.shape}, ${countFormat.format(job.prior)} prior) exited with ${status.code ?? status.signal}: ${reason}\n${lines.slice(-12).join('\n')}`,
    );
  };
  /** Resolves with the first line of the child's output that `matches`, once it is there. */
  async function lineOf(matches, what) {
    const deadline = performance.now() + CHILD_TIMEOUT_MS;
    for (;;) {
      const found = child.output().split('\n').find(matches);
      if (found !== undefined) return found;
      if (child.hasExited()) throw failure(await child.exited);
      if (performance.now() > deadline)
        throw new Error(`scaling worker ${JSON.stringify(job)}: no ${what} after ${formatMs(CHILD_TIMEOUT_MS)}`);
      await pause(10);
    }
  }
  const seeded = lineOf((text) => text === 'SEEDED', 'history');
  // Awaited with the other children's in Promise.all: if one of those fails first, this must not go unhandled.
  seeded.catch(() => {});
  return {
    job,
    seeded,
    /** Runs the child's round `round` of timed authorizations; after the last one, resolves with its figures. */
    async round(round) {
      if (child.hasExited()) throw failure(await child.exited);
      process.kill(child.pid, 'SIGUSR2');
      if (round < job.rounds) return lineOf((text) => text === `ROUND ${round}`, `round ${round}`);
      const line = await lineOf((text) => text.startsWith('RESULT '), 'result');
      return JSON.parse(line.slice('RESULT '.length));
    },
    stop: () => child.stop(),
  };
}

/**
 * One run of every shape and size: the children record their histories all at once (most of the time), then get
 * their rounds of timed authorizations in turn, each alone while the others wait idle.
 */
async function runOnce(plan, log, label) {
  const children = [];
  for (const size of SIZES) {
    for (const { shape } of SHAPES)
      children.push(startChild({ shape, prior: size, warmup: plan.warmup, timed: plan.timed, rounds: plan.rounds, seed: SEED }));
  }
  try {
    const started = performance.now();
    await Promise.all(children.map((child) => child.seeded));
    const recordMs = performance.now() - started;
    log(`scaling${label}: histories recorded in ${formatMs(recordMs)} (${children.length} children at once)`);
    const results = [];
    for (let round = 1; round <= plan.rounds; round++) {
      // The order turns with each round, so that no size always comes right after the same one.
      for (let i = 0; i < children.length; i++) {
        const child = children[(i + round - 1) % children.length];
        const result = await child.round(round);
        if (round === plan.rounds) results.push(result);
      }
    }
    results.sort(
      (a, b) =>
        a.prior - b.prior ||
        SHAPES.findIndex(({ shape }) => shape === a.shape) - SHAPES.findIndex(({ shape }) => shape === b.shape),
    );
    for (const result of results) {
      const where = SHAPES.find(({ shape }) => shape === result.shape).label;
      log(
        `scaling${label}: ${countFormat.format(result.prior)} prior ${where}: median ${formatUs(result.medianUs)}, p99 ${formatUs(result.p99Us)}, ` +
          `heap ${formatBytes(result.heapWithHistory)}, ${formatBytes(result.retainedPerAuthorization)}/authorization, ` +
          `${result.operations?.toFixed(1) ?? 'n/a'} operations (history recorded in ${formatMs(result.seedMs)})`,
      );
    }
    return { results, recordMs };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** Medians over the repeats of every figure of one (shape, size). */
function summarise(results) {
  const of = (key) => median(results.map((result) => result[key]));
  return {
    medianUs: of('medianUs'),
    p99Us: of('p99Us'),
    heapWithHistory: of('heapWithHistory'),
    retainedPerAuthorization: of('retainedPerAuthorization'),
    operations: results.every((result) => result.operations !== null) ? of('operations') : null,
    eventsPerAuthorization: of('eventsPerAuthorization'),
    seed: results[0].seed,
  };
}

function growthRow(measure, ours, smallest, ratio) {
  return {
    measure,
    ours,
    baseline: `${countFormat.format(SIZES[0])} prior: ${smallest}`,
    ratio: formatRatio(ratio),
    target: `< ${TARGET_RATIO}x`,
    met: ratio < TARGET_RATIO,
  };
}

function rowsFor({ label }, bySize) {
  const smallest = bySize.get(SIZES[0]);
  const larger = SIZES.slice(1);
  const rows = [];
  for (const size of larger) {
    const figures = bySize.get(size);
    rows.push(
      growthRow(
        `authorize latency, ${countFormat.format(size)} prior ${label} (median / p99)`,
        `${formatUs(figures.medianUs)} / ${formatUs(figures.p99Us)}`,
        `${formatUs(smallest.medianUs)} / ${formatUs(smallest.p99Us)}`,
        figures.medianUs / smallest.medianUs,
      ),
    );
  }
  for (const size of larger) {
    const figures = bySize.get(size);
    rows.push(
      growthRow(
        `heap retained per authorization, ${countFormat.format(size)} prior ${label}`,
        formatBytes(figures.retainedPerAuthorization),
        formatBytes(smallest.retainedPerAuthorization),
        figures.retainedPerAuthorization / smallest.retainedPerAuthorization,
      ),
    );
  }
  const sizes = SIZES.map((size) => countFormat.format(size)).join(' / ');
  const all = SIZES.map((size) => bySize.get(size));
  const largest = all[all.length - 1];
  rows.push({
    measure: `heap used after forced GC, ${label} (${sizes} prior)`,
    ours: all.map((figures) => formatBytes(figures.heapWithHistory)).join(' / '),
    baseline: '',
    ratio: '',
    target: '',
    met: null,
  });
  // The long-run figure: every hash-table doubling of the whole history included, where a batch of timed
  // authorizations includes those it happens to cross.
  const span = SIZES[SIZES.length - 1] - SIZES[0];
  rows.push({
    measure: `heap per prior transaction over the whole history, ${label} ((heap at ${countFormat.format(SIZES[SIZES.length - 1])} - at ${countFormat.format(SIZES[0])}) / ${countFormat.format(span)})`,
    ours: formatBytes((largest.heapWithHistory - smallest.heapWithHistory) / span),
    baseline: '',
    ratio: '',
    target: '',
    met: null,
  });
  if (all.every((figures) => figures.operations !== null)) {
    rows.push({
      measure: `engine operations per authorization, ${label} (${sizes} prior)`,
      ours: all.map((figures) => figures.operations.toFixed(1)).join(' / '),
      baseline: '',
      ratio: formatRatio(largest.operations / smallest.operations),
      target: '',
      met: null,
    });
  }
  return rows;
}

export async function run({ quick, log }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  /** shape -> size -> results of each repeat */
  const results = new Map(SHAPES.map(({ shape }) => [shape, new Map(SIZES.map((size) => [size, []]))]));
  const recordMs = [];
  for (let repeat = 0; repeat < plan.repeats; repeat++) {
    const label = plan.repeats > 1 ? ` (run ${repeat + 1}/${plan.repeats})` : '';
    const run = await runOnce(plan, log, label);
    for (const result of run.results) results.get(result.shape).get(result.prior).push(result);
    recordMs.push(run.recordMs);
  }

  const rows = [];
  const summaries = new Map();
  for (const spec of SHAPES) {
    const bySize = new Map(SIZES.map((size) => [size, summarise(results.get(spec.shape).get(size))]));
    summaries.set(spec.shape, bySize);
    rows.push(...rowsFor(spec, bySize));
  }

  const all = [...summaries.values()].flatMap((bySize) => [...bySize.values()]);
  const eventCounts = [...new Set(all.map((figures) => figures.eventsPerAuthorization.toFixed(2)))];
  const spread = (bySize, key) => {
    const values = [...bySize.values()].map((figures) => figures[key]);
    return formatRatio(Math.max(...values) / Math.min(...values));
  };
  const spreads = SHAPES.map(
    ({ shape, label }) =>
      `${label}: latency ${spread(summaries.get(shape), 'medianUs')}, retained heap ${spread(summaries.get(shape), 'retainedPerAuthorization')}`,
  );
  const notes = [
    'Ratio here: the figure with that many prior transactions / the figure with 10 (growth: 1x is flat, lower is better), not the "ours vs baseline" ratio of the other suites. ' +
      `Target from the issue: under 1.5x for the median latency and for the heap retained per authorization. Largest / smallest of the three sizes, whichever they are: ${spreads.join('; ')}.`,
    'Heap used and heap per prior transaction are information, without a target: the mock keeps every transaction and event in memory, so its heap grows with the stored history by design.',
    `Each shape and size in its own \`node --expose-gc\` child: one customer funded far beyond the run; "on the card": every prior transaction on the card authorized; "in the organization": spread over up to 1,000 cards (10 per agent), and a fresh card of the first agent is authorized. The history's test times are spread over the 7 days before. JIT warmed first with ${countFormat.format(plan.warmup)} authorizations on a throwaway organization (forgotten with \`mock.reset()\`); then ${countFormat.format(plan.timed)} timed authorizations, 3 test minutes apart (the prior count is the history before them; on the card they add to it), each timed alone from \`mock.handle(request)\` to its body read and checked approved, in ${plan.rounds} rounds: the children take turns, each timed while the others wait idle, so that all sizes share the same stretch of time on this shared machine. ${plan.repeats === 1 ? 'One run.' : `Medians of ${plan.repeats} runs, each with fresh children.`}`,
    'Risk: strict preset in dry run, velocity and spend-spike thresholds at the spec maxima, unattested and merchant-drift detectors off (they would flag every authorization of this stream whatever the history): every authorization is a plain approval. ' +
      (eventCounts.length === 1
        ? `Events stored per timed authorization: ${eventCounts[0]} at every size.`
        : `Events stored per timed authorization differ between sizes (${eventCounts.join(', ')}): the sizes did not do the same work, compare with care.`),
    "Memory: `heapUsed` after a forced full GC right before the timed authorizations (heap used) and right after them; retained per authorization = the difference / the timed count. It includes the growth of the stores' hash tables, which double in steps: the smaller histories' batches cross some doublings, the 100,000's none, which favours the larger history by some 0.5 KB; the whole-history row, (heap at 100,000 - heap at 10) / 99,990, is the long-run figure with every doubling.",
    all.some((figures) => figures.seed === 'http')
      ? `Prior transactions recorded through \`mock.handle()\` (POST /v1/simulate/authorize); the six histories of a run took ${recordMs.map((ms) => formatMs(ms)).join(', ')}, recorded at the same time.`
      : "Prior transactions recorded through the engine's `authorize()` (mock-server/src/engine/transactions/authorize.ts, run under tsx), which the POST /v1/simulate/authorize handler calls, with the body parsed from JSON and the answer rendered and serialized as the handler does: the same records, events and aggregates (heap within 1% of recording through `mock.handle()`), without the HTTP steps, which store nothing, in a third of the time. " +
        `The six histories of a run took ${recordMs.map((ms) => formatMs(ms)).join(', ')}, recorded at the same time. CARDRAIL_BENCH_SCALING_SEED=http records them through \`mock.handle()\`.`,
    'Engine operations: the steps the spend aggregates count per authorization (buckets touched, index probes), free of timing noise.',
  ];
  return { rows, notes };
}

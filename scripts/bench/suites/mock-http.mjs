// The mock server's throughput and latency over HTTP, next to the ceiling (a bare node:http server
// replaying our mock's own answers) and to `prism mock` of our spec (what a user would pick instead).
// Every server runs alone in a child process; autocannon runs here. Runs of the targets are interleaved, so noise
// from the shared machine spreads over all of them instead of landing on one.
import {
  capturedRoutes,
  cardReadRequests,
  forAutocannon,
  isApproved,
  mixedRequests,
  prepareOrganization,
  verifyRequests,
} from '../lib/card-workload.mjs';
import { formatCount, formatRate, formatRatio, formatWholeMs } from '../lib/format.mjs';
import { fireLoad, LOAD_CONNECTIONS, summariseRuns } from '../lib/load.mjs';
import { medianRatio } from '../lib/stats.mjs';
import { startBareServer } from '../servers/bare-http.mjs';
import { startOurMock } from '../servers/our-mock.mjs';
import { PRISM_BASE_PATH, startPrism } from '../servers/prism.mjs';

export const title = 'Mock server over HTTP: throughput and latency';

const PLANS = {
  // Quick leaves out the informational silent-Prism row: the whole quick run of all suites must stay under a minute.
  quick: { warmupSec: 0.5, durationSec: 1.5, runs: 1, quietPrism: false },
  // Seven runs of 6 s rather than three of 10 s: more pairs of adjacent runs (see pairedRatio), whose median moved by
  // up to a tenth between two runs of the suite with five.
  full: { warmupSec: 3, durationSec: 6, runs: 7, quietPrism: true },
};
// getVsBare: at or above three quarters of the ceiling, where the mock and the SDK core were reshaped around one
// request object (docs/architecture.md).
const TARGETS = { getVsBare: 0.75, getVsPrism: 10, mixedRps: 10_000 };

export async function run({ quick, log }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  const started = [];
  const track = (promise) => {
    started.push(promise);
    // A start that fails while another step is awaited must not be an unhandled rejection; it is awaited later.
    promise.catch(() => {});
    return promise;
  };
  const notes = [];
  try {
    // Prism takes seconds to start: start both while ours is set up.
    const prismStarting = track(startPrism());
    const quietPrismStarting = plan.quietPrism ? track(startPrism({ quiet: true })) : undefined;

    log('mock-http: starting our mock and setting up an organization');
    const ours = await track(startOurMock());
    const ids = await prepareOrganization(ours.origin);
    const ourRequests = { get: cardReadRequests(ids, '/v1'), mixed: mixedRequests(ids, '/v1') };
    const ourAnswers = await verifyRequests(ours.name, ours.origin, [...ourRequests.get, ...ourRequests.mixed]);
    const authorization = ourAnswers.find(({ request }) => request.name === 'simulate authorize');
    if (!isApproved(authorization))
      throw new Error(`the workload's authorization is declined before the run: ${authorization.response.body}`);

    log('mock-http: starting the bare node:http server with our captured answers');
    const bare = await track(startBareServer({ routes: capturedRoutes(ourAnswers), probePath: ourRequests.mixed[3].path }));
    await verifyRequests(bare.name, bare.origin, [...ourRequests.get, ...ourRequests.mixed]);

    const prismRequests = { get: cardReadRequests(ids, PRISM_BASE_PATH), mixed: mixedRequests(ids, PRISM_BASE_PATH) };
    const prism = await prismStarting;
    const quietPrism = await quietPrismStarting;
    await verifyRequests(prism.name, prism.origin, [...prismRequests.get, ...prismRequests.mixed]);
    if (quietPrism) await verifyRequests(quietPrism.name, quietPrism.origin, prismRequests.get);

    const targets = [
      { key: 'ours', server: ours, requests: ourRequests },
      { key: 'bare', server: bare, requests: ourRequests },
      { key: 'prism', server: prism, requests: prismRequests },
      // Informational: Prism at its fastest, on the card read only.
      ...(quietPrism ? [{ key: 'quietPrism', server: quietPrism, requests: { get: prismRequests.get } }] : []),
    ];
    const results = {
      get: await measureInterleaved(targets, 'get', plan, log),
      mixed: await measureInterleaved(targets, 'mixed', plan, log),
    };

    const [after] = await verifyRequests(
      ours.name,
      ours.origin,
      ourRequests.mixed.filter((request) => request.name === 'simulate authorize'),
    );
    notes.push(
      isApproved(after)
        ? 'After the runs, an authorization on the workload card is still approved (the card was not frozen or declined under load).'
        : `After the runs, an authorization on the workload card is DECLINED: ${after.response.body.toString().slice(0, 200)}`,
    );
    return { rows: rowsOf(results), notes: [...describePlan(plan), ...notes, ...describeOutcomes(results, quick)] };
  } finally {
    const settled = await Promise.allSettled(started);
    await Promise.all(settled.filter((s) => s.status === 'fulfilled').map((s) => s.value.stop()));
  }
}

/**
 * Warms each target up, then runs them in turn, run after run, every other round in the reverse order (so that neither
 * of ours and its baseline always runs first after a Prism run, or first at all); medians per target.
 */
async function measureInterleaved(targets, workload, plan, log) {
  const measured = targets.filter((target) => target.requests[workload]);
  const load = (target, durationSec) =>
    fireLoad({ origin: target.server.origin, requests: forAutocannon(target.requests[workload]), durationSec });
  const runs = Object.fromEntries(measured.map((target) => [target.key, []]));
  for (const target of measured) {
    log(`mock-http: ${workload}, ${target.server.name}: warm-up ${plan.warmupSec} s`);
    await load(target, plan.warmupSec);
  }
  for (let i = 0; i < plan.runs; i++) {
    for (const target of i % 2 === 0 ? measured : [...measured].reverse()) {
      log(`mock-http: ${workload}, ${target.server.name}: run ${i + 1}/${plan.runs}, ${plan.durationSec} s`);
      runs[target.key].push(await load(target, plan.durationSec));
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([key, list]) => [key, summariseRuns(list)]));
}

function figure(summary) {
  return `${formatRate(summary.rps)} (p50 ${formatWholeMs(summary.p50)}, p99 ${formatWholeMs(summary.p99)})`;
}

function rowsOf({ get, mixed }) {
  const versus = (measure, ours, name, baseline, target, threshold) => {
    const ratio = pairedRatio(ours, baseline);
    return {
      measure,
      ours: figure(ours),
      baseline: `${name}: ${figure(baseline)}`,
      ratio: formatRatio(ratio),
      target: target ?? '',
      met: threshold === undefined ? null : ratio >= threshold,
    };
  };
  return [
    versus(
      'GET /v1/cards/{id}, vs the ceiling',
      get.ours,
      'bare node:http',
      get.bare,
      `>= ${TARGETS.getVsBare}x`,
      TARGETS.getVsBare,
    ),
    versus(
      'GET /v1/cards/{id}, vs Prism (default)',
      get.ours,
      'prism mock',
      get.prism,
      `>= ${TARGETS.getVsPrism}x`,
      TARGETS.getVsPrism,
    ),
    ...(get.quietPrism
      ? [versus('GET /v1/cards/{id}, vs Prism silent (informational)', get.ours, 'prism mock -v silent', get.quietPrism)]
      : []),
    {
      ...versus('Mixed workload (create, evaluate, authorize, list)', mixed.ours, 'bare node:http', mixed.bare),
      target: `>= ${TARGETS.mixedRps.toLocaleString('en-US')} req/s`,
      met: mixed.ours.rps >= TARGETS.mixedRps,
    },
    versus('Mixed workload, vs Prism (default; static examples)', mixed.ours, 'prism mock', mixed.prism),
  ];
}

/** The median over runs of ours / the baseline's run next to it (run i of each target are adjacent: see measureInterleaved). */
function pairedRatio(ours, baseline) {
  return medianRatio(
    ours.runs.map((run) => run.rps),
    baseline.runs.map((run) => run.rps),
  );
}

function describePlan(plan) {
  return [
    `autocannon in the bench process, -c ${LOAD_CONNECTIONS}, pipelining 1, ${plan.durationSec} s x ${plan.runs} run(s) per server and workload after a ${plan.warmupSec} s warm-up; req/s and latencies are medians over the runs, and a ratio is the median of the runs' ratios (ours over the baseline's run next to it; the order of the servers turns every other round), which cancels most of the machine's drift; each server alone in its own child process on 127.0.0.1.`,
    'Workloads: GET /v1/cards/{id} with `Authorization: Bearer sk_test_...`; mixed = each connection cycles POST /v1/cards, POST /v1/spend/evaluate, POST /v1/simulate/authorize, GET /v1/cards?limit=10 (organization funded, no card limits, risk rules in dry run, so authorizations are approved). Our mock keeps its state across runs: every run adds cards and transactions.',
    'Bare node:http answers each route with the bytes our mock answered before the run (same status, content-type and body); it reads request bodies but parses nothing: the ceiling.',
    'Prism: `prism mock` of spec/dist/customer.json (with jsonSchemaDialect 2020-12, as contract-tests/ runs it), paths without /v1; it answers the spec examples and keeps no state. The 10x target is judged against Prism with its default settings (info logging, here written to /dev/null, which is cheaper than a terminal); ' +
      (plan.quietPrism
        ? 'the `-v silent --errors false` row is informational.'
        : 'Prism with `-v silent --errors false` (informational) is measured in full mode only.'),
  ];
}

function describeOutcomes(results, quick) {
  const names = { ours: 'ours', bare: 'bare', prism: 'prism', quietPrism: 'prism silent' };
  const failures = [];
  for (const [workload, byTarget] of Object.entries(results)) {
    for (const [key, summary] of Object.entries(byTarget)) {
      const problems = [];
      if (summary.non2xx > 0) problems.push(`${summary.non2xx} non-2xx (${JSON.stringify(summary.statusCodes)})`);
      if (summary.errors > 0) problems.push(`${summary.errors} connection errors`);
      if (summary.timeouts > 0) problems.push(`${summary.timeouts} timeouts`);
      failures.push(
        `${names[key]} ${workload}: ${problems.length ? problems.join(', ') : '0 non-2xx'} of ${formatCount(summary.total)}`,
      );
    }
  }
  const notes = [`Answers during the runs: ${failures.join('; ')}.`];
  if (!quick) {
    const perRun = Object.entries(results).flatMap(([workload, byTarget]) =>
      Object.entries(byTarget).map(
        ([key, summary]) => `${names[key]} ${workload} ${summary.runs.map((r) => formatCount(r.rps)).join('/')}`,
      ),
    );
    notes.push(`Each run, req/s: ${perRun.join('; ')}.`);
  }
  return notes;
}

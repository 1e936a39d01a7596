// HTTP load with autocannon, run in the bench process against a server in another process: closed-loop
// connections, no pipelining, a warm-up whose figures are thrown away, then repeated runs reduced to medians.
import autocannon from 'autocannon';
import { median, sum } from './stats.mjs';

export const LOAD_CONNECTIONS = 50;

/** One autocannon run. `requests` are autocannon request objects ({ method, path, headers, body }), cycled per connection. */
export async function fireLoad({ origin, requests, durationSec, connections = LOAD_CONNECTIONS }) {
  // autocannon stops only on a sample tick (1 s by default): a finer tick keeps sub-second warm-ups sub-second.
  const result = await autocannon({ url: origin, requests, connections, pipelining: 1, duration: durationSec, sampleInt: 250 });
  // requests.average is a mean of whole-second samples; completed requests over elapsed time is exact for short runs.
  const seconds = result.duration > 0 ? result.duration : durationSec;
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/** Medians of several runs, and the sum of what went wrong in all of them. */
export function summariseRuns(runs) {
  const statusCodes = {};
  for (const run of runs)
    for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    runs,
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    total: sum(runs.map((run) => run.total)),
    non2xx: sum(runs.map((run) => run.non2xx)),
    errors: sum(runs.map((run) => run.errors)),
    timeouts: sum(runs.map((run) => run.timeouts)),
    statusCodes,
  };
}

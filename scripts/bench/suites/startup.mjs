// Start-up, from spawning the process to its first 2xx answer to a real request, polled every 2 ms on
// fresh connections. Ours (the built CLI, with its dashboard as by default and without) against `prism mock` of our
// spec, and against the smallest Node HTTP server: the floor, what Node itself costs. Starts are interleaved and each
// server is stopped before the next starts.
import { formatMs, formatRatio } from '../lib/format.mjs';
import { median, medianRatio } from '../lib/stats.mjs';
import { startNodeFloor } from '../servers/node-floor.mjs';
import { ourMockProbe, startOurMock } from '../servers/our-mock.mjs';
import { prismProbe, startPrism } from '../servers/prism.mjs';

export const title = 'Start-up: process start to first answered request';

const POLL_MS = 2;
const TARGET_MS = 300;
/** Ours at most this many times the floor's start to its first answer. */
const FLOOR_TARGET = 1.5;

const CONTENDERS = [
  { key: 'ours', start: startOurMock },
  { key: 'oursNoDashboard', start: (options) => startOurMock({ ...options, flags: ['--no-dashboard'] }) },
  { key: 'prism', start: startPrism },
  { key: 'floor', start: startNodeFloor },
];

function rotated(list, by) {
  const shift = by % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}

export async function run({ quick, log }) {
  // 21: the floor itself varies by half on a shared two-core machine; with 11 starts the median ratio still moved
  // by a fifth between two runs of the suite.
  const starts = quick ? 3 : 21;
  const times = { ours: [], oursNoDashboard: [], prism: [], floor: [] };
  for (let i = 0; i < starts; i++) {
    // The order turns by one each round: the start after Prism's exit, or first in a round, is slower on a busy
    // machine, and no contender should always take that place.
    for (const contender of rotated(CONTENDERS, i)) {
      const server = await contender.start({ pollMs: POLL_MS });
      times[contender.key].push(server.readyMs);
      await server.stop();
    }
    log(
      `startup: start ${i + 1}/${starts}: ours ${formatMs(times.ours[i])} (no dashboard ${formatMs(times.oursNoDashboard[i])}), prism ${formatMs(times.prism[i])}, node floor ${formatMs(times.floor[i])}`,
    );
  }
  const ours = median(times.ours);
  const prism = median(times.prism);
  const floor = median(times.floor);
  const vsFloor = (measure, key) => {
    // Each round's start of ours over the floor's start in the same round, a few seconds apart.
    const timesFloor = medianRatio(times[key], times.floor);
    return {
      measure,
      ours: `${formatMs(median(times[key]))} (${formatRatio(timesFloor)} the floor)`,
      baseline: `node -e node:http: ${formatMs(floor)}`,
      ratio: formatRatio(1 / timesFloor),
      target: `<= ${FLOOR_TARGET}x the floor`,
      met: timesFloor <= FLOOR_TARGET,
    };
  };
  const spread = (key) => `${formatMs(Math.min(...times[key]))} to ${formatMs(Math.max(...times[key]))}`;
  return {
    rows: [
      {
        measure: 'Start to first answer, vs Prism',
        ours: formatMs(ours),
        baseline: `prism mock: ${formatMs(prism)}`,
        ratio: formatRatio(prism / ours),
        target: `< ${TARGET_MS} ms`,
        met: ours < TARGET_MS,
      },
      vsFloor('Start to first answer, vs the Node floor', 'ours'),
      vsFloor('Start to first answer without the dashboard (`--no-dashboard`), vs the Node floor', 'oursNoDashboard'),
    ],
    notes: [
      `Median of ${starts} starts each, interleaved (ours, ours without the dashboard, Prism, floor; the order turns by one each round, so that no contender always starts first or right after Prism); range ours ${spread('ours')}, without the dashboard ${spread('oursNoDashboard')}, Prism ${spread('prism')}, floor ${spread('floor')}.`,
      `Ours: \`node mock-server/dist/cli.mjs --port <free>\` (and with \`--no-dashboard\`), first 2xx of GET ${ourMockProbe.path} (authenticated; the key's organization is created by that call). Prism: \`prism mock\` of the customer document, first 2xx of GET ${prismProbe.path}. Floor: \`node -e "require('http').createServer((q,s)=>s.end('{}')).listen(port)"\`, first answer to GET /. Against the floor, the ratio is the median of the rounds' ratios (each start of ours over the floor's start in the same round), which cancels most of the machine's drift between rounds; the ratio column is its inverse, and the Cardrail column gives ours's median time and how many times the floor it took.`,
      `Timed from just before spawn() to the first 2xx response; the poll retries every ${POLL_MS} ms on a fresh connection.`,
    ],
  };
}

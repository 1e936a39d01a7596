// The standalone server's robustness figures (docs/standalone-server.md): the mixed workload with a `*` webhook
// against the same workload without one; the mock's open files while its webhook receiver never answers; and the heap
// through a soak of the mixed workload at a steady object count (durable state has its own suite, durable-state.mjs). Every server is the built CLI (or, for the soak, the built
// startMockServer) in a child process on 127.0.0.1; every load is bounded in time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { BENCH_KEY, forAutocannon, mixedRequests, prepareOrganization } from '../lib/card-workload.mjs';
import { spawnChild } from '../lib/children.mjs';
import { formatCount, formatMs, formatRate, formatRatio } from '../lib/format.mjs';
import { freePort } from '../lib/free-port.mjs';
import { jsonOf, requestOnce, waitForHttp } from '../lib/http-probe.mjs';
import { fireLoad, summariseRuns } from '../lib/load.mjs';
import { benchDir, mockCli } from '../lib/paths.mjs';
import { startServer } from '../lib/server-process.mjs';

export const title = 'Standalone server: webhooks and memory';

const AUTH = { authorization: `Bearer ${BENCH_KEY}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

/** The built CLI with extra flags; `probeKey` is the key of the readiness probe. */
async function startMock(args = [], { probeKey = 'sk_test_benchprobe01', pollMs = 5 } = {}) {
  const port = await freePort();
  return startServer({
    name: 'cardrail-mock',
    command: process.execPath,
    args: [mockCli, '--port', String(port), '--host', '127.0.0.1', ...args],
    origin: `http://127.0.0.1:${port}`,
    probe: { path: '/v1/cards?limit=1', headers: { authorization: `Bearer ${probeKey}` } },
    pollMs,
    timeoutMs: 300_000,
  });
}

/** A webhook receiver child (`ok` or `hang`) and its latest counters. */
async function startReceiver(mode) {
  const port = await freePort();
  const child = spawnChild(process.execPath, [join(benchDir, 'servers', 'webhook-receiver.mjs'), String(port), mode]);
  for (let waited = 0; !child.output().includes('ready'); waited += 10) {
    if (waited > 10_000 || child.hasExited()) throw new Error(`webhook receiver did not start: ${child.output()}`);
    await pause(10);
  }
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    stats() {
      const last = child
        .output()
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('stats '))
        .at(-1);
      const [open, peak, connections, requests] = (last ?? 'stats 0 0 0 0').split(' ').slice(1).map(Number);
      return { open, peak, connections, requests };
    },
    stop: () => child.stop(),
  };
}

async function subscribe(origin, url) {
  const answer = await requestOnce(`${origin}/v1/webhooks`, { method: 'POST', headers: JSON_AUTH, body: { url, events: ['*'] } });
  if (answer.status !== 201) throw new Error(`POST /v1/webhooks: HTTP ${answer.status} ${answer.body}`);
}

function openFiles(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}

/** TCP connections established to `port` on this machine (from /proc/net/tcp): the mock's sockets to its receiver. */
function connectionsTo(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  try {
    return readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .filter((line) => {
        const [, , remote, state] = line.trim().split(/\s+/);
        return state === '01' && remote?.endsWith(`:${hex}`);
      }).length;
  } catch {
    return Number.NaN;
  }
}

const formatBytes = (bytes) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;

/** Runs `fn(runIndex)` for each contender in turn, `runs` times: noise from the machine spreads over all of them. */
async function interleave(contenders, runs, fn) {
  const results = Object.fromEntries(contenders.map((name) => [name, []]));
  for (let i = 0; i < runs; i++) for (const name of contenders) results[name].push(await fn(name, i));
  return results;
}

async function webhookFanOut({ quick, log }) {
  const receiver = await startReceiver('ok');
  const plain = await startMock();
  const hooked = await startMock();
  try {
    const ids = { plain: await prepareOrganization(plain.origin), hooked: await prepareOrganization(hooked.origin) };
    await subscribe(hooked.origin, receiver.url);
    const servers = { plain, hooked };
    const durationSec = quick ? 1.5 : 10;
    const load = (name, seconds) =>
      fireLoad({ origin: servers[name].origin, requests: forAutocannon(mixedRequests(ids[name], '/v1')), durationSec: seconds });
    for (const name of ['plain', 'hooked']) await load(name, quick ? 0.5 : 3);
    const runs = await interleave(['plain', 'hooked'], quick ? 1 : 3, async (name, i) => {
      const result = await load(name, durationSec);
      log(`standalone: mixed ${name} run ${i + 1}: ${formatRate(result.rps)}`);
      return result;
    });
    const without = summariseRuns(runs.plain);
    const withHook = summariseRuns(runs.hooked);
    await pause(500);
    const delivered = receiver.stats();
    const ratio = withHook.rps / without.rps;
    return {
      rows: [
        {
          measure: 'Mixed workload with a `*` webhook per organization, vs without webhooks',
          ours: `${formatRate(withHook.rps)} (p99 ${formatMs(withHook.p99)})`,
          baseline: `no webhook: ${formatRate(without.rps)} (p99 ${formatMs(without.p99)})`,
          ratio: formatRatio(ratio),
          target: '>= 0.5x',
          met: ratio >= 0.5,
        },
      ],
      notes: [
        `Mixed workload as in mock-http (create card, evaluate, authorize, list), ${quick ? 1 : 3} run(s) of ${durationSec} s per server, interleaved, after a warm-up; two fresh servers, one organization each, one with a \`*\` webhook to a receiver child answering 204. The receiver got ${formatCount(delivered.requests)} deliveries over ${delivered.connections} connection(s) (at most ${delivered.peak} open at once): deliveries reuse kept-alive connections. Non-2xx answers: ${without.non2xx + withHook.non2xx}, errors: ${without.errors + withHook.errors}.`,
      ],
      plain,
      plainIds: ids.plain,
    };
  } finally {
    await hooked.stop();
    await receiver.stop();
  }
}

async function hangingReceiver({ quick, log }, plain, plainIds) {
  const receiver = await startReceiver('hang');
  const hooked = await startMock();
  try {
    const ids = { plain: plainIds, hooked: await prepareOrganization(hooked.origin) };
    await subscribe(hooked.origin, receiver.url);
    const durationSec = quick ? 3 : 12;
    let sockets = 0;
    const measure = async (server, organization) => {
      let max = 0;
      const sampler = setInterval(() => {
        max = Math.max(max, openFiles(server.pid));
        sockets = Math.max(sockets, connectionsTo(receiver.port));
      }, 100);
      const result = await fireLoad({
        origin: server.origin,
        requests: forAutocannon(mixedRequests(organization, '/v1')),
        durationSec,
      });
      clearInterval(sampler);
      return { max, result };
    };
    const hooking = await measure(hooked, ids.hooked);
    const idle = await measure(plain, ids.plain);
    const stats = receiver.stats();
    log(
      `standalone: open files: hanging receiver ${hooking.max}, no webhook ${idle.max}; receiver sockets at most ${stats.peak}`,
    );
    const errors = hooking.result.errors + hooking.result.timeouts;
    return {
      rows: [
        {
          measure: 'Open files of the mock, mixed workload with a `*` webhook to a receiver that never answers (max)',
          ours: `${hooking.max} (sockets to the receiver: ${sockets})`,
          baseline: `no webhook: ${idle.max}`,
          ratio: formatRatio(idle.max / hooking.max),
          target: 'receiver sockets <= 8, no API errors',
          met: sockets <= 8 && errors === 0 && hooking.result.non2xx === 0,
        },
      ],
      notes: [
        `Hanging receiver: ${durationSec} s of the mixed workload (50 connections) against a server whose organization has a \`*\` webhook to a receiver that reads each delivery and never answers; the mock's open file descriptors (/proc/<pid>/fd) and its established connections to the receiver's port (/proc/net/tcp) sampled every 100 ms. ${formatRate(hooking.result.rps)}; the API answered ${formatCount(hooking.result.total)} requests with ${hooking.result.non2xx} non-2xx and ${errors} errors or timeouts. The receiver saw ${stats.connections} connection(s), at most ${stats.peak} open at once, and ${stats.requests} deliveries (each attempt waits for its 10 s timeout; the rest queue in order). The baseline is a server without webhooks under the same load (its 50 client sockets, listening socket and Node's own descriptors).`,
      ],
    };
  } finally {
    await hooked.stop();
    await receiver.stop();
  }
}

async function soak({ quick, log }) {
  const receiver = await startReceiver('ok');
  const port = await freePort();
  const control = await freePort();
  const child = spawnChild(process.execPath, [
    '--expose-gc',
    join(benchDir, 'servers', 'soak-mock.mjs'),
    String(port),
    String(control),
  ]);
  const origin = `http://127.0.0.1:${port}`;
  const heap = async () => jsonOf(await requestOnce(`http://127.0.0.1:${control}/heap`, { timeoutMs: 60_000 }));
  try {
    await waitForHttp(`${origin}/v1/cards?limit=1`, { headers: AUTH, gaveUp: child.hasExited });
    await waitForHttp(`http://127.0.0.1:${control}/heap`, { gaveUp: child.hasExited });
    const ids = await prepareOrganization(origin);
    await subscribe(origin, receiver.url);
    const patch = (path, body) => ({ method: 'PATCH', path: `/v1${path}`, headers: JSON_AUTH, body: JSON.stringify(body) });
    const requests = [
      patch(`/cards/${ids.cardId}`, { status: 'frozen' }),
      patch(`/cards/${ids.cardId}`, { status: 'active' }),
      {
        method: 'POST',
        path: '/v1/spend/evaluate',
        headers: JSON_AUTH,
        body: JSON.stringify({ cardId: ids.cardId, amount: 2_500, currency: 'usd', merchant: { name: 'OpenAI', mcc: '5734' } }),
      },
      patch(`/customers/${ids.customerId}`, { metadata: { round: 'a' } }),
      patch(`/customers/${ids.customerId}`, { metadata: { round: 'b' } }),
      { method: 'GET', path: '/v1/cards?limit=10', headers: AUTH },
      { method: 'POST', path: '/v1/simulate/clock/advance', headers: JSON_AUTH, body: JSON.stringify({ seconds: 600 }) },
    ];
    const cardsBefore = jsonOf(await requestOnce(`${origin}/v1/cards?limit=100`, { headers: AUTH })).data.length;
    const durationSec = quick ? 15 : 600;
    const sampleEvery = quick ? 1_000 : 30_000;
    const samples = [];
    const loading = fireLoad({ origin, requests, durationSec });
    const started = performance.now();
    const sampler = (async () => {
      while (performance.now() - started < durationSec * 1000 - sampleEvery / 2) {
        await pause(sampleEvery);
        const { heapUsed } = await heap();
        samples.push({ at: (performance.now() - started) / 1000, heapUsed });
      }
    })();
    const result = await loading;
    await sampler;
    await pause(500);
    const end = await heap();
    samples.push({ at: (performance.now() - started) / 1000, heapUsed: end.heapUsed });
    const cardsAfter = jsonOf(await requestOnce(`${origin}/v1/cards?limit=100`, { headers: AUTH })).data.length;
    const clock = jsonOf(await requestOnce(`${origin}/v1/simulate/clock`, { headers: AUTH }));
    const settled = samples.filter((sample) => sample.at >= durationSec / 4);
    const reference = settled[0] ?? samples[0];
    const growth = end.heapUsed / reference.heapUsed;
    const spread = settled.map((sample) => sample.heapUsed);
    log(
      `standalone: soak heap ${formatBytes(reference.heapUsed)} at ${reference.at.toFixed(0)} s, ${formatBytes(end.heapUsed)} at the end`,
    );
    return {
      rows: [
        {
          measure: `Heap after GC through a ${quick ? `${durationSec} s` : '10-minute'} soak of the mixed workload at a steady object count`,
          ours: `${formatBytes(end.heapUsed)} at the end (${formatRate(result.rps)})`,
          baseline: `at ${reference.at.toFixed(0)} s: ${formatBytes(reference.heapUsed)}`,
          ratio: formatRatio(reference.heapUsed / end.heapUsed),
          target: '>= 0.9x (flat)',
          met: growth <= 1 / 0.9,
        },
      ],
      notes: [
        `Soak: the built startMockServer in a child with --expose-gc; autocannon, 50 connections, ${durationSec} s, each connection cycling freeze and unfreeze a card (PATCH), evaluate a spend, change the customer's metadata twice (PATCH; user.updated), list cards, and advance the test clock by 10 minutes; a \`*\` webhook delivers every event to a receiver child. Objects stay as they are (cards before and after: ${cardsBefore}, ${cardsAfter}) while events and delivery records are made all the time and dropped after 30 days of the test clock, which reached ${clock.now} (the run made ${formatCount(result.total)} requests, ${result.non2xx} non-2xx). Heap used after a forced full GC, every ${sampleEvery / 1000} s: after the first quarter of the run it stayed between ${formatBytes(Math.min(...spread))} and ${formatBytes(Math.max(...spread))}; the ratio compares the first sample after that quarter with the last.`,
      ],
    };
  } finally {
    await child.stop();
    await receiver.stop();
  }
}

export async function run({ quick, log }) {
  const rows = [];
  const notes = [];
  const fanOut = await webhookFanOut({ quick, log });
  rows.push(...fanOut.rows);
  notes.push(...fanOut.notes);
  try {
    const hanging = await hangingReceiver({ quick, log }, fanOut.plain, fanOut.plainIds);
    rows.push(...hanging.rows);
    notes.push(...hanging.notes);
  } finally {
    await fanOut.plain.stop();
  }
  for (const part of [soak]) {
    const result = await part({ quick, log });
    rows.push(...result.rows);
    notes.push(...result.notes);
  }
  return { rows, notes };
}

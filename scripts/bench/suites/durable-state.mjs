// The durable state of the standalone server (`--state`, docs/standalone-server.md#durable-state): the time from
// spawn to the first answer, and the memory then, with a state of 100,000 objects in 500 organizations (the
// organizations are read on demand, so neither should grow with the store); the first answer of another organization
// once the server runs; the cost of a write with --state against without (and with --state-fsync always); and how
// long `cardrail-mock state check` takes over the whole store. Every server is the built CLI in a child process on
// 127.0.0.1.
//
// The "before" figures are the journal store this one replaced, measured with this same suite on main at 40f3ee1
// (the state written by the same generator, then compacted by one start as that store did), on this machine the
// same day: they cannot be measured again from this tree, which no longer has that store.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { spawnChild } from '../lib/children.mjs';
import { formatCount, formatMs, formatRate, formatRatio } from '../lib/format.mjs';
import { freePort } from '../lib/free-port.mjs';
import { requestOnce } from '../lib/http-probe.mjs';
import { fireLoad, summariseRuns } from '../lib/load.mjs';
import { benchDir, mockCli } from '../lib/paths.mjs';
import { startServer } from '../lib/server-process.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'Durable state: start-up, memory and writes with --state';

/**
 * The journal store's figures before this store replaced it (see above): this suite run on main at 40f3ee1, full
 * mode, Node 24.21, on 2026-11-26 (in memory then: 8.13k writes/s; an empty --state directory: 219 ms to the first
 * answer; another organization's first answer once running: 4.7 ms, everything being in memory).
 */
const BEFORE = {
  commit: '40f3ee1',
  startMs: 4_110,
  rssBytes: 596.6 * 1024 * 1024,
  writesPerSecond: 6_560,
  alwaysPerSecond: 1_900,
};

const WRITE_AUTH = { authorization: 'Bearer sk_test_benchwrites01', 'content-type': 'application/json' };

/** The built CLI with extra flags, timed from spawn to the first 2xx of an authenticated GET with `probeKey`. */
async function startMock(args = [], { probeKey = 'sk_test_benchprobe01', pollMs = 2 } = {}) {
  const port = await freePort();
  return startServer({
    name: 'cardrail-mock',
    command: process.execPath,
    args: [mockCli, '--port', String(port), '--host', '127.0.0.1', '--no-dashboard', ...args],
    origin: `http://127.0.0.1:${port}`,
    probe: { path: '/v1/cards?limit=1', headers: { authorization: `Bearer ${probeKey}` } },
    pollMs,
    timeoutMs: 600_000,
  });
}

/**
 * The CPU time a process has used so far, all its threads (user + system), in ms: /proc/<pid>/stat counts it in clock
 * ticks of 10 ms (USER_HZ is 100 on Linux). NaN where there is no /proc.
 */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

function residentBytes(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

const formatBytes = (bytes) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} KB`;

function directoryBytes(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? directoryBytes(path) : stat.size;
  }
  return total;
}

/** Runs `fn(name, runIndex)` for each contender in turn, `runs` times: noise from the machine spreads over all of them. */
async function interleave(contenders, runs, fn) {
  const results = Object.fromEntries(contenders.map((name) => [name, []]));
  for (let i = 0; i < runs; i++) for (const name of contenders) results[name].push(await fn(name, i));
  return results;
}

/** Writes a state of `objects` objects through the built mock (servers/state-generator.mjs). */
async function generateState(dir, objects, log) {
  const started = performance.now();
  const generator = spawnChild(process.execPath, [join(benchDir, 'servers', 'state-generator.mjs'), dir, String(objects)]);
  const { code } = await generator.exited;
  if (code !== 0) throw new Error(`state generator failed: ${generator.output()}`);
  const made = JSON.parse(generator.output().trim().split('\n').at(-1));
  log(
    `durable-state: wrote ${formatCount(made.objects)} objects in ${made.organizations} organizations in ${formatMs(performance.now() - started)}`,
  );
  // The journal store (before) folded its journal into one file on the next start; its measured starts read that.
  if (readdirSync(dir).some((name) => name.startsWith('journal.'))) {
    const first = await startMock(['--state', dir], { probeKey: made.key });
    for (let waited = 0; readdirSync(dir).filter((name) => name.startsWith('journal.')).length > 1; waited += 100) {
      if (waited > 600_000) throw new Error('the journal was not compacted');
      await pause(100);
    }
    await first.stop(60_000);
  }
  return made;
}

async function startup({ quick, log }) {
  const objects = quick ? 10_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-bench-state-'));
  const empty = [];
  try {
    const made = await generateState(dir, objects, log);
    const bytes = directoryBytes(dir);
    const runs = await interleave(['state', 'empty'], quick ? 2 : 5, async (name) => {
      const target = name === 'state' ? dir : mkdtempSync(join(tmpdir(), 'cardrail-bench-empty-'));
      if (name === 'empty') empty.push(target);
      const server = await startMock(['--state', target], { probeKey: made.key });
      const rss = residentBytes(server.pid);
      let otherMs = Number.NaN;
      if (name === 'state') {
        // Another organization, not in memory yet, once the server runs: its first answer reads it.
        const started = performance.now();
        const answer = await requestOnce(`${server.origin}/v1/cards?limit=1`, {
          headers: { authorization: `Bearer ${made.lastKey}` },
        });
        if (answer.status !== 200) throw new Error(`GET /v1/cards of another organization: HTTP ${answer.status}`);
        otherMs = performance.now() - started;
      }
      await server.stop(60_000);
      return { ms: server.readyMs, rss, otherMs };
    });
    const ours = median(runs.state.map((run) => run.ms));
    const rss = median(runs.state.map((run) => run.rss));
    const baseline = median(runs.empty.map((run) => run.ms));
    const other = median(runs.state.map((run) => run.otherMs));
    log(
      `durable-state: first answer from ${formatCount(made.objects)} objects ${formatMs(ours)} (RSS ${formatBytes(rss)}), empty ${formatMs(baseline)}`,
    );

    const check = await timeCheck(dir);
    const sized = !quick;
    return {
      rows: [
        {
          measure: `Start to first answer with --state of ${formatCount(made.objects)} objects in ${made.organizations} organizations`,
          ours: `${formatMs(ours)} (RSS ${formatBytes(rss)})`,
          baseline: sized
            ? `journal store, before (main ${BEFORE.commit}): ${formatMs(BEFORE.startMs)} (RSS ${formatBytes(BEFORE.rssBytes)})`
            : `empty --state: ${formatMs(baseline)}`,
          ratio: formatRatio((sized ? BEFORE.startMs : baseline) / ours),
          target: sized ? '<= 1 s and <= 150 MB RSS' : '',
          met: sized ? ours <= 1_000 && rss <= 150 * 1024 * 1024 : null,
        },
        {
          measure: 'First answer of another organization, not yet in memory, once the server runs (informational)',
          ours: formatMs(other),
          baseline: '',
          ratio: '',
          target: '',
          met: null,
        },
        {
          measure: `\`cardrail-mock state check\` of that store (every page, count and checksum; informational)`,
          ours: check === undefined ? 'n/a' : formatMs(check),
          baseline: '',
          ratio: '',
          target: '',
          met: null,
        },
      ],
      notes: [
        `State: ${formatCount(made.objects)} objects in ${made.organizations} organizations (each 10 customers, 10 agents, 80 cards, 100 approved authorizations, with their balances and events), written through the built mock (servers/state-generator.mjs), ${formatBytes(bytes)} on disk. Median of ${quick ? 2 : 5} starts, interleaved with starts on an empty state directory (${formatMs(baseline)}), timed from spawn() to the first 2xx of an authenticated GET /v1/cards of the first organization (that request reads the organization); RSS read right after. The start checks the database (SQLite's quick_check, the commit count, each organization's record count) and reads no organization until one is asked for.`,
        `Before: the journal store (main at ${BEFORE.commit}) read the whole state at start; measured with this suite the same day on this machine, ${formatMs(BEFORE.startMs)} to the first answer with RSS ${formatBytes(BEFORE.rssBytes)}, the state compacted by one start first, as that store did.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    for (const path of empty) rmSync(path, { recursive: true, force: true });
  }
}

/** How long `cardrail-mock state check <dir>` takes (undefined for the journal store, which has no such command). */
async function timeCheck(dir) {
  if (!readdirSync(dir).includes('state.db')) return undefined;
  const started = performance.now();
  const check = spawnChild(process.execPath, [mockCli, 'state', 'check', dir]);
  const { code } = await check.exited;
  if (code !== 0) throw new Error(`state check failed: ${check.output()}`);
  return performance.now() - started;
}

async function writeCost({ quick, log }) {
  const dirs = [mkdtempSync(join(tmpdir(), 'cardrail-bench-w1-')), mkdtempSync(join(tmpdir(), 'cardrail-bench-w2-'))];
  const servers = {
    memory: await startMock(),
    state: await startMock(['--state', dirs[0]]),
    always: await startMock(['--state', dirs[1], '--state-fsync', 'always']),
  };
  try {
    const requests = [
      { method: 'POST', path: '/v1/customers', headers: WRITE_AUTH, body: JSON.stringify({ email: 'bench@example.com' }) },
    ];
    const durationSec = quick ? 1.5 : 10;
    for (const server of Object.values(servers))
      await fireLoad({ origin: server.origin, requests, durationSec: quick ? 0.5 : 2 });
    const runs = await interleave(Object.keys(servers), quick ? 1 : 5, async (name, i) => {
      const { pid } = servers[name];
      const cpuBefore = cpuMs(pid);
      const result = await fireLoad({ origin: servers[name].origin, requests, durationSec });
      const cpuPerWriteUs = ((cpuMs(pid) - cpuBefore) * 1000) / result.total;
      log(
        `durable-state: writes ${name} run ${i + 1}: ${formatRate(result.rps)}, ${cpuPerWriteUs.toFixed(0)} us of CPU per write`,
      );
      return { ...result, cpuPerWriteUs };
    });
    const [memory, state, always] = ['memory', 'state', 'always'].map((name) => ({
      ...summariseRuns(runs[name]),
      cpuPerWriteUs: median(runs[name].map((run) => run.cpuPerWriteUs)),
    }));
    const perWrite = (summary) => `${(1e6 / summary.rps).toFixed(0)} us of server time per write`;
    const cpu = (summary) => `${summary.cpuPerWriteUs.toFixed(0)} us of CPU per write`;
    const cpuRatio = state.cpuPerWriteUs / memory.cpuPerWriteUs;
    return {
      rows: [
        {
          measure: 'Writes (POST /v1/customers) with --state, vs without',
          ours: `${formatRate(state.rps)}, ${perWrite(state)}`,
          baseline: `in memory: ${formatRate(memory.rps)}, ${perWrite(memory)}; journal store, before: ${formatRate(BEFORE.writesPerSecond)}`,
          ratio: formatRatio(state.rps / memory.rps),
          target: '>= 0.8x',
          met: state.rps / memory.rps >= 0.8,
        },
        {
          measure: 'CPU per write with --state, vs without (the server process, all threads)',
          ours: `${cpu(state)} (${cpuRatio.toFixed(2)} times the in-memory figure)`,
          baseline: `in memory: ${cpu(memory)}`,
          ratio: formatRatio(memory.cpuPerWriteUs / state.cpuPerWriteUs),
          target: '<= 1.3 times in memory',
          met: Number.isFinite(cpuRatio) ? cpuRatio <= 1.3 : null,
        },
        {
          measure: 'Writes with --state --state-fsync always (informational)',
          ours: `${formatRate(always.rps)}, ${perWrite(always)}`,
          baseline: `in memory: ${formatRate(memory.rps)}; journal store, before: ${formatRate(BEFORE.alwaysPerSecond)}`,
          ratio: formatRatio(always.rps / memory.rps),
          target: '',
          met: null,
        },
      ],
      notes: [
        `Writes: autocannon, 50 connections, POST /v1/customers (a customer, its balance and two events), ${quick ? 1 : 5} run(s) of ${durationSec} s per server, interleaved, medians. Every answer leaves after the commit that holds its write; the writes answered in one turn of the server's event loop share one transaction (group commit: docs/standalone-server.md#group-commit). "Server time per write" is 1 / throughput at saturation (the mock answers one request at a time); "CPU per write" is the server process's CPU time (user + system, all threads, from /proc/<pid>/stat) over a run divided by the writes answered in it. Non-2xx: ${memory.non2xx + state.non2xx + always.non2xx}. The default policy (\`interval\`: SQLite's synchronous=NORMAL, a checkpoint every second) writes each commit before its answer and forces it to disk within a second; \`always\` (synchronous=FULL) forces it before each answer (a disk flush per transaction, whatever this machine's disk costs).`,
      ],
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function run({ quick, log }) {
  const rows = [];
  const notes = [];
  for (const part of [startup, writeCost]) {
    const result = await part({ quick, log });
    rows.push(...result.rows);
    notes.push(...result.notes);
  }
  return { rows, notes };
}

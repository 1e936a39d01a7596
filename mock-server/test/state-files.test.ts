// The files of a `--state` directory while the server runs (docs/standalone-server.md#files): removed under it, each
// is noticed (at the next commit, or within a second) and written back, or the server stops loudly; no write is
// answered 2xx once it would go to a file no path leads to. Each server is the built CLI in its own process.
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';
import { type CliProcess, killChildren, startCli } from './support/cli-process.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { tempDirs } from './support/temp-dirs.js';

afterEach(() => killChildren());
const stateDir = tempDirs('cardrail-files-');

const start = (dir: string) => startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT, '--no-dashboard']);

/** A customer created through the API: its id when answered 201, else the status. */
async function createCustomer(server: CliProcess, key: string, email: string): Promise<{ status: number; id?: string }> {
  try {
    const response = await fetch(`${server.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json()) as { id?: string };
    return { status: response.status, id: body.id };
  } catch {
    // The server stopped while the request was on its way: no answer, and certainly no 201.
    return { status: 0 };
  }
}

/** Every id answers 200 to GET by id on a new server on `dir`, which stops cleanly afterwards. */
async function allThereAfterRestart(dir: string, key: string, ids: string[]): Promise<void> {
  const server = await start(dir);
  for (const id of ids) {
    const response = await fetch(`${server.url}/customers/${id}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status, id).toBe(200);
  }
  expect(await server.stop('SIGTERM')).toBe(0);
}

async function until(condition: () => boolean, what: string, timeoutMs = WAITS.ui): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.runIf(hasNodeSqlite())('the files of a running --state server', () => {
  it('writes state.db.commits back when it is removed, so that a clean stop starts again with nothing lost', async () => {
    const dir = stateDir();
    const key = newKey();
    const seal = join(dir, 'state.db.commits');
    const server = await start(dir);
    const ids = [(await createCustomer(server, key, 'before@example.com')).id as string];
    rmSync(seal);
    const after = await createCustomer(server, key, 'after@example.com');
    expect(after.status).toBe(201);
    ids.push(after.id as string);
    // Back before that answer left, with the count of every commit.
    expect(readFileSync(seal, 'utf8')).toMatch(/^commits \d{20} pid \d{10} wal [0-9a-f]{24}\n$/);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain(`${seal} was removed while the server ran: written back`);
    await allThereAfterRestart(dir, key, ids);
  });

  it('writes state.db.commits back within a second when no write comes', async () => {
    const dir = stateDir();
    const key = newKey();
    const seal = join(dir, 'state.db.commits');
    const server = await start(dir);
    const ids = [(await createCustomer(server, key, 'before@example.com')).id as string];
    rmSync(seal);
    await until(() => existsSync(seal), 'the seal written back');
    // Killed, not stopped: what the directory holds now is enough to start again.
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    await allThereAfterRestart(dir, key, ids);
  });

  it('stops when state.db is removed: no write answered 201 after it, and everything committed written back', async () => {
    const dir = stateDir();
    const key = newKey();
    const database = join(dir, 'state.db');
    const server = await start(dir);
    const exited = once(server.child, 'exit');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createCustomer(server, key, `c${i}@example.com`)).id as string);
    rmSync(database);
    // Refused (503 state_not_saved), or not answered at all once the server stopped on its own check: never 201.
    const refused = await createCustomer(server, key, 'lost@example.com');
    expect(refused.status).not.toBe(201);
    const [code] = (await exited) as [number | null];
    expect(code).toBe(1);
    expect(server.output()).toContain(`${database}: was removed or replaced while the server ran`);
    expect(server.output()).toMatch(
      /Everything it had committed \(\d+ commits\) was written back to .*state\.db: start it again/,
    );
    expect(existsSync(database)).toBe(true);
    await allThereAfterRestart(dir, key, ids);
  });

  it('makes the write-ahead log anew when it is removed: a kill -9 afterwards loses no answered write', async () => {
    const dir = stateDir();
    const key = newKey();
    const wal = join(dir, 'state.db-wal');
    const server = await start(dir);
    const ids = [(await createCustomer(server, key, 'before@example.com')).id as string];
    rmSync(wal);
    for (let i = 0; i < 3; i++) {
      const answer = await createCustomer(server, key, `after${i}@example.com`);
      expect(answer.status).toBe(201);
      ids.push(answer.id as string);
    }
    expect(existsSync(wal)).toBe(true);
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    expect(server.output()).toContain(`${wal} was removed while the server ran: made anew, nothing lost`);
    await allThereAfterRestart(dir, key, ids);
  });
});

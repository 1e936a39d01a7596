// The files of a `--state` directory while the server runs (docs/standalone-server.md#files): removed under it, each
// is noticed (at the next commit, or within a second) and written back, or the server stops loudly; no write is
// answered 2xx once it would go to a file no path leads to. Each server is the built CLI in its own process.
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';
import { killChildren } from './support/cli-process.js';
import {
  addCustomers,
  allThereAfterRestart,
  createCustomer,
  killOutright,
  serverWithFileRemoved,
} from './support/state-dir-server.js';
import { tempDirs } from './support/temp-dirs.js';

afterEach(() => killChildren());
const stateDir = tempDirs('cardrail-files-');

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
    const running = await serverWithFileRemoved(dir, 'state.db.commits', ['before@example.com']);
    const { server, key, ids, path: seal } = running;
    await addCustomers(running, ['after@example.com']);
    // Back before that answer left, with the count of every commit.
    expect(readFileSync(seal, 'utf8')).toMatch(/^commits \d{20} pid \d{10} wal [0-9a-f]{24}\n$/);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain(`${seal} was removed while the server ran: written back`);
    await allThereAfterRestart(dir, key, ids);
  });

  it('writes state.db.commits back within a second when no write comes', async () => {
    const dir = stateDir();
    const { server, key, ids, path: seal } = await serverWithFileRemoved(dir, 'state.db.commits', ['before@example.com']);
    await until(() => existsSync(seal), 'the seal written back');
    // Killed, not stopped: what the directory holds now is enough to start again.
    await killOutright(server);
    await allThereAfterRestart(dir, key, ids);
  });

  it('stops when state.db is removed: no write answered 201 after it, and everything committed written back', async () => {
    const dir = stateDir();
    const emails = Array.from({ length: 5 }, (_, i) => `c${i}@example.com`);
    const { server, key, ids, path: database } = await serverWithFileRemoved(dir, 'state.db', emails);
    // Listened for in the turn the file went: the server stops on its own only once it notices, later.
    const exited = once(server.child, 'exit');
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
    const running = await serverWithFileRemoved(dir, 'state.db-wal', ['before@example.com']);
    const { server, key, ids, path: wal } = running;
    await addCustomers(running, ['after0@example.com', 'after1@example.com', 'after2@example.com']);
    expect(existsSync(wal)).toBe(true);
    await killOutright(server);
    expect(server.output()).toContain(`${wal} was removed while the server ran: made anew, nothing lost`);
    await allThereAfterRestart(dir, key, ids);
  });
});

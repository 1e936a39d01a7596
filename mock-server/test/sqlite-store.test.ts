// The --state store on SQLite (docs/standalone-server.md#durable-state), in-process: each request's changes are in
// the database before its answer, organizations are read on their first request, a commit the disk refuses is 503
// with nothing applied while reads go on, the directory's journal format of earlier releases is imported and
// verified, and export and import round-trip the state. The same behaviour across processes (kill -9, two servers,
// damage) is in chaos.test.ts.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateDamageError } from '../src/adapters/sqlite/errors.js';
import { inspectState } from '../src/adapters/sqlite/inspect.js';
import { hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { exportSnapshot } from '../src/adapters/sqlite/snapshot-io.js';
import { SqliteStateStore, WAL_KEEP_BYTES } from '../src/adapters/sqlite/store.js';
import { normalizedTenant } from '../src/core/state/compare.js';
import type { MockSnapshot } from '../src/core/state/model.js';
import { createMockServer, type MockServer } from '../src/index.js';
import type { ApiRequest } from '../src/operations/api-request.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call, carryOn, fakeReceivers, readBack, runTour, tourOptions } from './support/state-tour.js';
import { tempDirs } from './support/temp-dirs.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

const stateDir = tempDirs('cardrail-sqlite-');
const fixture = fileURLToPath(new URL('./fixtures/journal-format/', import.meta.url));

/** A snapshot in one canonical order, for comparing two read in different orders. */
function normalized(snapshot: MockSnapshot): MockSnapshot {
  return {
    ...snapshot,
    tenants: snapshot.tenants
      .map(normalizedTenant)
      .sort((a, b) => `${a.organizationId}:${a.mode}`.localeCompare(`${b.organizationId}:${b.mode}`)),
  };
}

/** How long a receiver took is measured in wall time: the one figure two runs do not share. */
function timeless<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/(\\?"durationMs\\?":)\d+/g, '$10')) as T;
}

function open(dir: string, options: { maxBytes?: number } = {}) {
  const store = SqliteStateStore.open({ path: dir, ...options });
  const mock = createMockServer({ frozenClock: FROZEN_AT, journal: store });
  return { store, mock };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > WAITS.ui) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function created(mock: MockServer, key: string, email: string): Promise<string> {
  const answer = await call(mock, { method: 'POST', path: '/customers', body: { email }, key });
  expect(answer.status, answer.body).toBe(201);
  return (JSON.parse(answer.body) as { id: string }).id;
}

describe.runIf(hasNodeSqlite())('the SQLite state store (node:sqlite, Node.js 22.13+)', () => {
  it('has a request’s changes in the database before its answer is returned, committed with those beside it', async () => {
    const { store, mock } = open(stateDir());
    const key = newKey();
    const body = JSON.stringify({ email: 'ada@example.com' });
    const request: ApiRequest = {
      method: 'POST',
      url: 'http://127.0.0.1:4010/v1/customers',
      headers: { get: (name) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })[name] ?? null },
      bodyText: body,
      text: () => Promise.resolve(body),
    };
    await mock.dispatch(request);
    const owner = mock.tenantOf(key)?.key as string;
    const stored = () =>
      store.tenants.read(owner)?.tenant.collections.customers?.map(([, record]) => (record as { id: string }).id);
    const seal = () => readFileSync(store.files.seal, 'utf8');
    const sealBefore = seal();
    // Ten writes in one turn: none is answered before its row is in the database.
    const answers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const { id } = JSON.parse((await mock.dispatch({ ...request })).body) as { id: string };
        return stored()?.includes(id);
      }),
    );
    expect(answers).toEqual(Array(10).fill(true));
    // One transaction for the ten (group commit): the commit count beside the database moved by one.
    const commits = (text: string) => Number(/commits (\d+)/.exec(text)?.[1]);
    expect(commits(seal()) - commits(sealBefore)).toBe(1);
    await store.close();
  });

  it('reads an organization on its first request after a restart, and no other', async () => {
    const dir = stateDir();
    let { store, mock } = open(dir);
    const keys = [newKey(), newKey(), newKey()];
    const ids = [];
    for (const key of keys) ids.push(await created(mock, key, 'ada@example.com'));
    const before = mock.snapshot();
    await mock.stop(0);
    await store.close();

    ({ store, mock } = open(dir));
    expect(store.summary).toMatchObject({ existing: true, organizations: 3 });
    // Nothing is in memory until asked for.
    expect(mock.events.list()).toHaveLength(0);
    const answer = await call(mock, { method: 'GET', path: `/customers/${ids[1]}`, key: keys[1] });
    expect(answer.status).toBe(200);
    expect(mock.events.list().map((event) => event.type)).toEqual(
      mock.events.list({ apiKey: keys[1] }).map((event) => event.type),
    );
    expect(mock.events.list({ apiKey: keys[1] }).length).toBeGreaterThan(0);
    // The snapshot reads the others without loading them, and is the state before the restart.
    expect(normalized(mock.snapshot())).toEqual(normalized(before));
    await store.close();
  });

  it('restores the whole tour: every read and every later request answers as before the restart', async () => {
    const dir = stateDir();
    const original = fakeReceivers();
    const a = createMockServer(tourOptions(original.fetch));
    const ids = await runTour(a);
    // The same tour into a mock on the store, then a restart on it.
    const first = SqliteStateStore.open({ path: dir });
    const b = createMockServer({ ...tourOptions(fakeReceivers().fetch), journal: first });
    await runTour(b);
    await b.idle();
    await b.stop(0);
    await first.close();
    const second = SqliteStateStore.open({ path: dir });
    const copy = fakeReceivers();
    const c = createMockServer({ ...tourOptions(copy.fetch), journal: second });
    for (const request of readBack(ids)) {
      expect(timeless(await call(c, request)), `${request.method} ${request.path}`).toEqual(timeless(await call(a, request)));
    }
    for (const request of carryOn(ids)) {
      const expected = await call(a, request);
      const answer = await call(c, request);
      await a.idle();
      await c.idle();
      expect(timeless(answer), `${request.method} ${request.path}`).toEqual(timeless(expected));
    }
    await second.close();
  });

  it('answers 503 with nothing applied when the disk is full, keeps serving reads, and loses no answered write', async () => {
    const dir = stateDir();
    // SQLite's max_page_count: a commit that needs a page more fails with SQLITE_FULL, as on a full disk.
    let { store, mock } = open(dir, { maxBytes: 160 * 1024 });
    const key = newKey();
    const answered: string[] = [];
    let refused = 0;
    for (let i = 0; i < 400 && refused < 5; i++) {
      const answer = await call(mock, {
        method: 'POST',
        path: '/customers',
        body: { email: `c${i}@example.com`, metadata: { note: 'x'.repeat(300) } },
        key,
      });
      if (answer.status === 201) answered.push((JSON.parse(answer.body) as { id: string }).id);
      else {
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'state_not_saved' } });
        expect(JSON.parse(answer.body).error.details.reason).toMatch(/disk is full/);
        refused++;
      }
    }
    expect(refused).toBe(5);
    expect(answered.length).toBeGreaterThan(10);
    // Reads are answered, and show exactly what was answered 2xx.
    const listed = JSON.parse((await call(mock, { method: 'GET', path: '/customers?limit=100', key })).body) as {
      data: { id: string }[];
    };
    expect(listed.data.map((customer) => customer.id)).toEqual(answered.slice(-100).reverse());
    await mock.stop(0);
    await store.close();
    ({ store, mock } = open(dir));
    for (const id of answered) expect((await call(mock, { method: 'GET', path: `/customers/${id}`, key })).status, id).toBe(200);
    // Room again: writes succeed.
    await created(mock, key, 'after@example.com');
    await store.close();
  });

  it('cuts the write-ahead log back to its bound once checkpointed, however far a burst of writes grew it', async () => {
    const dir = stateDir();
    const { store, mock } = open(dir);
    const key = newKey();
    await created(mock, key, 'ada@example.com');
    const tenant = mock.tenantOf(key)?.key as string;
    const walBytes = () => (existsSync(store.files.wal) ? statSync(store.files.wal).size : 0);
    // Commits made in one go, with no turn of the event loop for a checkpoint between them, as on a disk that was
    // full (no checkpoint could run) until room came back: the log grows past its bound.
    for (let seq = 1_000; seq < 1_400; seq++) {
      const record = { id: `cus_burst${seq}`, object: 'customer', email: 'x@example.com', metadata: { note: 'x'.repeat(8_000) } };
      store.commit([['put', tenant, 'customers', seq, record]]);
    }
    expect(walBytes()).toBeGreaterThan(WAL_KEEP_BYTES);
    // The next checkpoint (within a second) copies it into state.db and cuts it back.
    await until(() => walBytes() <= WAL_KEEP_BYTES, 'the log cut back to its bound');
    // Nothing of it was lost by the cut: state.db holds the last record of the burst.
    const stored = store.tenants.read(tenant)?.tenant.collections.customers?.map(([, record]) => (record as { id: string }).id);
    expect(stored).toContain('cus_burst1399');
    await mock.stop(0);
    await store.close();
  });

  it('lets idle organizations leave memory, reads one back on its next request, and wakes one when its work falls due', async () => {
    const dir = stateDir();
    const { store, mock } = open(dir);
    const idle = newKey();
    const id = await created(mock, idle, 'idle@example.com');
    const timed = newKey();
    const customer = await created(mock, timed, 'timed@example.com');
    const card = JSON.parse(
      (
        await call(mock, {
          method: 'POST',
          path: '/cards',
          body: { customerId: customer, policy: { ttlMinutes: 5 } },
          key: timed,
        })
      ).body,
    ) as { id: string; status: string };
    expect(card.status).toBe('active');
    // Both leave: the one with a time-to-live too, since the store wakes it when it falls due.
    expect(mock.evictIdle(0)).toBe(2);
    expect(mock.events.list()).toHaveLength(0);
    expect((await call(mock, { method: 'GET', path: `/customers/${id}`, key: idle })).status).toBe(200);
    // The server-wide clock passes the time-to-live: the organization is read, its card expires on time.
    await mock.clock.advance(6 * 60);
    const expired = mock.events.list({ apiKey: timed }).map((event) => event.type);
    expect(expired).toContain('card.expired');
    const read = JSON.parse((await call(mock, { method: 'GET', path: `/cards/${card.id}`, key: timed })).body) as {
      status: string;
    };
    expect(read.status).toBe('closed');
    await mock.stop(0);
    await store.close();
  });

  it('refuses a second store on the same directory in this process', async () => {
    const dir = stateDir();
    const store = SqliteStateStore.open({ path: dir });
    expect(() => SqliteStateStore.open({ path: dir })).toThrow(/already open in this process/);
    await store.close();
    await SqliteStateStore.open({ path: dir }).close();
  });

  it('imports a directory in the journal format of the previous release on its first start, verified', async () => {
    const dir = stateDir();
    cpSync(join(fixture, 'state'), dir, { recursive: true });
    const expected = JSON.parse(readFileSync(join(fixture, 'snapshot.json'), 'utf8')) as MockSnapshot;
    // The fixture's mock had a seed: the id generator goes on from where it stood.
    const store = SqliteStateStore.open({ path: dir });
    const mock = createMockServer({ frozenClock: FROZEN_AT, seed: 'state-tour', journal: store });
    expect(store.summary.imported?.records).toBeGreaterThan(100);
    // The journal files are gone once the import was read back and compared; the database holds the state.
    expect(readdirSync(dir).sort()).toEqual(['state.db', 'state.db-wal', 'state.db.commits']);
    expect(normalized(mock.snapshot())).toEqual(normalized(expected));
    await store.close();
  });

  it('keeps the journal files when the journal is damaged, and names the file', () => {
    const dir = stateDir();
    cpSync(join(fixture, 'state'), dir, { recursive: true });
    const [tenantFile] = readdirSync(join(dir, 'tenants'));
    rmSync(join(dir, 'tenants', tenantFile as string));
    expect(() => SqliteStateStore.open({ path: dir })).toThrow(StateDamageError);
    expect(() => SqliteStateStore.open({ path: dir })).toThrow(new RegExp(`${tenantFile}: is missing`));
    expect(existsSync(join(dir, 'state.jsonl'))).toBe(true);
  });

  it('exports the state as snapshot() JSON and imports it into a new directory', async () => {
    const dir = stateDir();
    const { store, mock } = open(dir);
    for (let i = 0; i < 5; i++) await created(mock, newKey(), `c${i}@example.com`);
    const expected = mock.snapshot();
    await store.close();
    const inspected = inspectState(dir, { thorough: true });
    expect(inspected.problems).toEqual([]);
    let text = '';
    exportSnapshot(inspected, (chunk) => {
      text += chunk;
    });
    inspected.close();
    const exported = JSON.parse(text) as MockSnapshot;
    expect(normalized(exported)).toEqual(normalized(expected));
    const target = stateDir();
    const copy = SqliteStateStore.open({ path: target });
    copy.replace(exported);
    await copy.close();
    const { store: reopened, mock: again } = open(target);
    expect(normalized(again.snapshot())).toEqual(normalized(expected));
    await reopened.close();
  });
});

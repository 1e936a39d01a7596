// The --state store on node:fs (docs/standalone-server.md#durable-state): it drops a commit cut short by a crash,
// refuses a damaged journal, compacts, keeps idle organizations on disk and locks its directory.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStateStore } from '../src/adapters/state-store.js';
import { createMockServer } from '../src/index.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call } from './support/state-tour.js';
import { tempDirs } from './support/temp-dirs.js';

/** A new directory for a state store, removed after the file's tests. */
const stateDir = tempDirs('cardrail-state-');

describe('the state store', () => {
  const key = newKey();
  const options = { frozenClock: FROZEN_AT };

  it('drops a commit cut short by a crash, and refuses a journal damaged before its end', async () => {
    const dir = stateDir();
    let store = FileStateStore.open({ path: dir });
    let mock = createMockServer({ ...options, journal: store });
    await call(mock, { method: 'POST', path: '/customers', body: { email: 'ada@example.com' }, key });
    await store.close();
    const [journal] = readdirSync(dir).filter((name) => name.startsWith('journal.'));
    if (!journal) throw new Error('no journal');
    appendFileSync(join(dir, journal), '[["put","org_x:test","customers",9,{"id":"cus_to');
    store = FileStateStore.open({ path: dir });
    mock = createMockServer({ ...options, journal: store });
    expect(JSON.parse((await call(mock, { method: 'GET', path: '/customers', key })).body).data).toHaveLength(1);
    await store.close();
    expect(readFileSync(join(dir, journal), 'utf8').endsWith(']]\n')).toBe(true);

    const text = readFileSync(join(dir, journal), 'utf8');
    writeFileSync(join(dir, journal), `${text.slice(0, 10)}#${text.slice(11)}`);
    expect(() => FileStateStore.open({ path: dir })).toThrow(/unreadable commit/);
  });

  it('compacts the journal into one state file that restores the same state', async () => {
    const dir = stateDir();
    let store = FileStateStore.open({ path: dir });
    let mock = createMockServer({ ...options, journal: store });
    for (let i = 0; i < 30; i++)
      await call(mock, { method: 'POST', path: '/customers', body: { email: `c${i}@example.com` }, key });
    const before = mock.snapshot();
    await store.compact();
    await call(mock, { method: 'POST', path: '/customers', body: { email: 'after@example.com' }, key });
    const after = mock.snapshot();
    await store.close();
    expect(readdirSync(dir).sort()).toEqual(['journal.1.jsonl', 'state.jsonl', 'tenants']);
    store = FileStateStore.open({ path: dir });
    mock = createMockServer({ ...options, journal: store });
    expect(mock.snapshot()).toEqual(after);
    expect(after).not.toEqual(before);
    await store.close();
  });

  it('keeps an idle organization on disk, out of memory, and brings it back on its next request after a restart', async () => {
    const dir = stateDir();
    let store = FileStateStore.open({ path: dir });
    let mock = createMockServer({ ...options, journal: store });
    const created = await call(mock, { method: 'POST', path: '/customers', body: { email: 'ada@example.com' }, key });
    expect(mock.evictIdle(0)).toBe(1);
    expect(readdirSync(join(dir, 'tenants'))).toHaveLength(1);
    await store.close();
    store = FileStateStore.open({ path: dir });
    mock = createMockServer({ ...options, journal: store });
    expect(mock.events.list()).toHaveLength(0);
    const listed = JSON.parse((await call(mock, { method: 'GET', path: '/customers', key })).body) as { data: unknown[] };
    expect(listed.data).toEqual([JSON.parse(created.body)]);
    await store.close();
  });

  it('is used by one server at a time', async () => {
    const dir = stateDir();
    const store = FileStateStore.open({ path: dir });
    expect(() => FileStateStore.open({ path: dir })).toThrow(/already open/);
    await store.close();
    await FileStateStore.open({ path: dir }).close();
  });
});

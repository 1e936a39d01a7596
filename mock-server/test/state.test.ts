// The state model (docs/standalone-server.md#the-state-model): snapshot() is the whole state as JSON, restore()
// brings back a mock that answers as the one that took it did, every change reaches the journal before its answer,
// events and delivery records age out after 30 days, and idle organizations can leave memory.
import { describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';
import { SnapshotBuilder } from '../src/core/state/builder.js';
import type { StateJournal } from '../src/core/state/change-tracker.js';
import type { MockSnapshot, StateLine } from '../src/core/state/model.js';
import { memoryStore, refusingStore } from './support/memory-store.js';
import type { ApiRequest } from '../src/operations/api-request.js';
import { call, carryOn, fakeReceivers, readBack, runTour, TOUR_KEY, tourOptions } from './support/state-tour.js';
import { FROZEN_AT, newKey } from './support/keys.js';

/** Tenants in key order, for comparing two snapshots that list them in different orders. */
function normalized(snapshot: MockSnapshot): MockSnapshot {
  const copy = structuredClone(snapshot);
  copy.tenants.sort((a, b) => `${a.organizationId}:${a.mode}`.localeCompare(`${b.organizationId}:${b.mode}`));
  return copy;
}

/** A journal that keeps every commit as the JSON text a file would hold. */
function memoryJournal(): StateJournal & { commits: StateLine[][] } {
  const commits: StateLine[][] = [];
  return {
    commits,
    commit: (lines) => {
      commits.push(JSON.parse(JSON.stringify(lines)) as StateLine[]);
    },
  };
}

/** The state the journal's commits build. */
function rebuilt(journal: { commits: StateLine[][] }): MockSnapshot {
  const builder = new SnapshotBuilder();
  for (const commit of journal.commits) for (const line of commit) builder.apply(line);
  return builder.toSnapshot();
}

/** How long a receiver took is measured in wall time: the one figure two runs do not share. */
function timeless<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/(\\?"durationMs\\?":)\d+/g, '$10')) as T;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('snapshot() and restore()', () => {
  it('restores a mock that answers every read and every later request as the one that took the snapshot', async () => {
    const original = fakeReceivers();
    const a = createMockServer(tourOptions(original.fetch));
    const ids = await runTour(a);
    const snapshot = a.snapshot();
    // Plain JSON: it survives a round trip through text unchanged.
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot.tenants).toHaveLength(2);

    const copy = fakeReceivers();
    const b = createMockServer(tourOptions(copy.fetch));
    // Whatever b held before is replaced.
    await call(b, { method: 'POST', path: '/customers', body: { email: 'gone@example.com' }, key: newKey() });
    b.restore(JSON.parse(JSON.stringify(snapshot)) as MockSnapshot);
    expect(normalized(b.snapshot())).toEqual(normalized(snapshot));

    for (const request of readBack(ids)) {
      expect(await call(b, request), `${request.method} ${request.path}`).toEqual(await call(a, request));
    }
    const deliveredBefore = original.received.length;
    for (const request of carryOn(ids)) {
      const expected = await call(a, request);
      const answer = await call(b, request);
      await a.idle();
      await b.idle();
      expect(timeless(answer), `${request.method} ${request.path}`).toEqual(timeless(expected));
    }
    // The same webhook attempts, with the same bodies and signatures, including the retries that were pending.
    expect(copy.received).toEqual(original.received.slice(deliveredBefore));
    expect(copy.received.some((line) => line.startsWith('https://down.example.test'))).toBe(true);
    expect(timeless(normalized(b.snapshot()))).toEqual(timeless(normalized(a.snapshot())));
  });

  it('refuses what is not a snapshot of this format', () => {
    const mock = createMockServer();
    expect(() => mock.restore({ format: 'other', version: 1 } as unknown as MockSnapshot)).toThrow(/cardrail-mock-state/);
  });
});

describe('the change journal', () => {
  it('holds every change: the state rebuilt from its commits is the live state', async () => {
    const journal = memoryJournal();
    const receivers = fakeReceivers();
    const mock = createMockServer({ ...tourOptions(receivers.fetch), journal });
    const ids = await runTour(mock);
    for (const request of carryOn(ids)) await call(mock, request);
    await mock.idle();
    await settle();
    expect(normalized(rebuilt(journal))).toEqual(normalized(mock.snapshot()));
  });

  it('has a request’s changes before its answer is returned, in one commit with the requests answered beside it', async () => {
    const journal = memoryJournal();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal });
    const body = JSON.stringify({ email: 'ada@example.com' });
    const request = (): ApiRequest => {
      const authorization = `Bearer ${newKey()}`;
      return {
        method: 'POST',
        url: 'http://127.0.0.1:4010/v1/customers',
        headers: { get: (name) => ({ authorization, 'content-type': 'application/json' })[name] ?? null },
        bodyText: body,
        text: () => Promise.resolve(body),
      };
    };
    const committedIds = () =>
      journal.commits
        .flat()
        .flatMap((line) => (line[0] === 'put' && line[2] === 'customers' ? [(line[4] as { id: string }).id] : []));
    // The operation's checks load on its first request (asynchronously); later ones run in the turn they arrive.
    await mock.dispatch(request());
    const before = journal.commits.length;
    // Eight writes in one turn: each answer, when it is handed over, finds its customer committed already.
    const found = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answer = await mock.dispatch(request());
        const { id } = JSON.parse(answer.body) as { id: string };
        return committedIds().includes(id);
      }),
    );
    expect(found).toEqual(Array(8).fill(true));
    // Group commit: the eight were kept in one commit, not one each.
    expect(journal.commits.length - before).toBe(1);
  });

  it('answers 503 with nothing applied when the store refuses a commit, and keeps serving', async () => {
    const disk = refusingStore();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal: disk.journal });
    const key = newKey();
    const post = (email: string, headers?: Record<string, string>) =>
      call(mock, { method: 'POST', path: '/customers', body: { email }, key, headers });
    const list = async () =>
      (JSON.parse((await call(mock, { method: 'GET', path: '/customers', key })).body) as { data: { email: string }[] }).data;
    expect((await post('kept@example.com')).status).toBe(201);
    disk.refusing = true;
    const refused = await post('lost@example.com', { 'Idempotency-Key': 'once' });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'state_not_saved', details: { reason: 'database or disk is full' } },
    });
    // Reads go on, and see nothing of the refused request: not in memory either.
    expect((await list()).map((customer) => customer.email)).toEqual(['kept@example.com']);
    disk.refusing = false;
    // The same idempotency key runs the request again: nothing of the refused one was remembered.
    const retried = await post('lost@example.com', { 'Idempotency-Key': 'once' });
    expect(retried.status).toBe(201);
    expect(retried.replayed).toBeNull();
    expect((await list()).map((customer) => customer.email)).toEqual(['lost@example.com', 'kept@example.com']);
  });

  it('writes only what a request changed, whatever the size of the state', async () => {
    const journal = memoryJournal();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal });
    const key = newKey();
    const post = (path: string, body: unknown) => call(mock, { method: 'POST', path, body, key });
    const customer = JSON.parse((await post('/customers', { email: 'ada@example.com' })).body) as { id: string };
    const sizes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const before = journal.commits.length;
      await post('/cards', { customerId: customer.id });
      sizes.push(journal.commits.slice(before).reduce((sum, commit) => sum + commit.length, 0));
    }
    // A card, its event and the tenant header, every time: the 200th costs what the 1st did.
    expect(new Set(sizes)).toEqual(new Set([sizes[0]]));
  });
});

describe('retention', () => {
  it('drops events and delivery records older than 30 days of the organization’s test clock', async () => {
    const receivers = fakeReceivers();
    const mock = createMockServer({ frozenClock: FROZEN_AT, fetch: receivers.fetch });
    const key = newKey();
    const ask = (method: string, path: string, body?: unknown) => call(mock, { method, path, body, key });
    const webhook = JSON.parse((await ask('POST', '/webhooks', { url: 'https://ok.example.test/h', events: ['*'] })).body) as {
      id: string;
    };
    await ask('POST', '/customers', { email: 'old@example.com' });
    await mock.idle();
    const old = JSON.parse((await ask('GET', '/events?limit=100')).body) as { data: { id: string }[] };
    expect(old.data.length).toBeGreaterThan(0);
    await ask('POST', '/simulate/clock/advance', { seconds: 29 * 86_400 });
    await ask('POST', '/customers', { email: 'new@example.com' });
    await mock.idle();
    // 29 days on: everything is still there.
    expect((JSON.parse((await ask('GET', '/events?limit=100')).body) as { data: unknown[] }).data).toHaveLength(
      old.data.length * 2,
    );
    await ask('POST', '/simulate/clock/advance', { seconds: 2 * 86_400 });
    const kept = JSON.parse((await ask('GET', '/events?limit=100')).body) as { data: { id: string }[] };
    expect(kept.data).toHaveLength(old.data.length);
    for (const event of old.data) expect((await ask('GET', `/events/${event.id}`)).status).toBe(404);
    const records = JSON.parse((await ask('GET', `/webhooks/${webhook.id}/deliveries?limit=100`)).body) as {
      data: { eventId: string }[];
    };
    expect(records.data.map((record) => record.eventId).sort()).toEqual(kept.data.map((event) => event.id).sort());
    expect(mock.events.list({ apiKey: key })).toHaveLength(old.data.length);
  });
});

describe('idle organizations', () => {
  async function organization(mock: MockServer, key: string): Promise<string> {
    await call(mock, { method: 'POST', path: '/customers', body: { email: 'ada@example.com' }, key });
    return (await call(mock, { method: 'GET', path: '/customers', key })).body;
  }

  it('leave memory and come back whole from a store that keeps them', async () => {
    const store = memoryStore();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal: store });
    const key = newKey();
    const before = await organization(mock, key);
    const other = newKey();
    await organization(mock, other);
    expect(mock.evictIdle(0)).toBe(2);
    expect([...mock.events.list()]).toHaveLength(0);
    expect((await call(mock, { method: 'GET', path: '/customers', key })).body).toBe(before);
    expect(store.reads).toBe(1);
    expect(mock.events.list({ apiKey: key }).length).toBeGreaterThan(0);
    // The snapshot holds the one still away too, and the store agrees with it.
    expect(mock.snapshot().tenants).toHaveLength(2);
    await settle();
    expect(normalized(store.rebuilt())).toEqual(normalized(mock.snapshot()));
  });

  it('are read from the store on their first request after a restart, one at a time', async () => {
    const store = memoryStore();
    const first = createMockServer({ frozenClock: FROZEN_AT, journal: store });
    const keys = [newKey(), newKey(), newKey()];
    const lists = await Promise.all(keys.map((key) => organization(first, key)));
    await settle();
    const second = createMockServer({ frozenClock: FROZEN_AT, journal: store });
    expect(second.snapshot().tenants).toHaveLength(3);
    expect(store.reads).toBe(3);
    store.reads = 0;
    expect((await call(second, { method: 'GET', path: '/customers', key: keys[1] })).body).toBe(lists[1]);
    expect(store.reads).toBe(1);
    // A key never seen is a new organization, not one of the stored ones.
    expect(JSON.parse((await call(second, { method: 'GET', path: '/customers', key: newKey() })).body).data).toEqual([]);
    expect(store.reads).toBe(1);
  });

  it('with work scheduled leave memory too, and come back when it falls due', async () => {
    const store = memoryStore();
    const mock = createMockServer({ frozenClock: FROZEN_AT, journal: store });
    const key = newKey();
    const customer = JSON.parse(
      (await call(mock, { method: 'POST', path: '/customers', body: { email: 'b@example.com' }, key })).body,
    ) as { id: string };
    const card = JSON.parse(
      (await call(mock, { method: 'POST', path: '/cards', body: { customerId: customer.id, policy: { ttlMinutes: 5 } }, key }))
        .body,
    ) as { id: string };
    await settle();
    expect(mock.evictIdle(0)).toBe(1);
    // The server-wide advance reaches the card's time-to-live: the organization is read, and its card expires.
    await mock.clock.advance(6 * 60);
    expect(store.reads).toBe(1);
    const read = JSON.parse((await call(mock, { method: 'GET', path: `/cards/${card.id}`, key })).body) as { status: string };
    expect(read.status).toBe('closed');
  });

  it('are forgotten without such a journal, and stay while work is due on their clock', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT });
    const key = newKey();
    await organization(mock, key);
    const busy = newKey();
    const customer = JSON.parse(
      (await call(mock, { method: 'POST', path: '/customers', body: { email: 'b@example.com' }, key: busy })).body,
    ) as { id: string };
    await call(mock, { method: 'POST', path: '/cards', body: { customerId: customer.id, policy: { ttlMinutes: 5 } }, key: busy });
    expect(mock.evictIdle(0)).toBe(1);
    expect(JSON.parse((await call(mock, { method: 'GET', path: '/customers', key })).body)).toMatchObject({ data: [] });
    expect(JSON.parse((await call(mock, { method: 'GET', path: '/cards', key: busy })).body).data).toHaveLength(1);
  });
});

it('keeps the tour key as a digest only', async () => {
  const mock = createMockServer(tourOptions(fakeReceivers().fetch));
  await runTour(mock);
  expect(JSON.stringify(mock.snapshot())).not.toContain(TOUR_KEY);
});

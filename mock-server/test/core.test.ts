import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BaseClock, OffsetClock } from '../src/core/clock.js';
import { Collection } from '../src/core/collection.js';
import { decodeCursor, encodeCursor } from '../src/core/cursor.js';
import { IdempotencyCache, IDEMPOTENCY_TTL_MS } from '../src/core/idempotency.js';
import { IdFactory, newRequestId } from '../src/core/ids.js';
import { parseRateLimit, RateLimiter } from '../src/core/rate-limiter.js';
import { Scheduler } from '../src/core/scheduler.js';
import { seededRandom } from '../src/core/seeded-random.js';
import { SortedSeqList } from '../src/core/sorted-seq-list.js';

describe('SortedSeqList', () => {
  it('matches a sorted array under random adds, deletes and seeks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 3000 })), { maxLength: 4000, size: 'max' }),
        fc.integer({ min: 0, max: 3100 }),
        (operations, bound) => {
          const list = new SortedSeqList<{ seq: number }>();
          const reference = new Set<number>();
          for (const [add, value] of operations) {
            if (add) expect(list.add({ seq: value })).toBe(!reference.has(value));
            else expect(list.delete(value)).toBe(reference.has(value));
            if (add) reference.add(value);
            else reference.delete(value);
          }
          const sorted = [...reference].sort((a, b) => b - a);
          expect(list.size).toBe(reference.size);
          const seqs = (entries: { seq: number }[]) => entries.map((entry) => entry.seq);
          expect(seqs(list.below(undefined, sorted.length + 1))).toEqual(sorted);
          expect(seqs(list.below(bound, 7))).toEqual(sorted.filter((v) => v < bound).slice(0, 7));
          expect(list.first()?.seq).toBe(sorted[sorted.length - 1]);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('Collection', () => {
  let seq = 0;
  const next = () => ++seq;

  it('pages newest first and a walk sees every object once while objects are inserted', () => {
    const items = new Collection<{ id: string }>(next);
    for (let i = 0; i < 25; i++) items.insert({ id: `a${i}` });
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = items.page({ limit: 4, before });
      seen.push(...page.items.map((item) => item.id));
      items.insert({ id: `new${seen.length}` });
      if (!page.hasMore) break;
      before = page.nextBefore;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `a${24 - i}`));
  });

  it('ends a walk on a last page that holds exactly `limit` objects, without an empty page after it', () => {
    const items = new Collection<{ id: string }>(next);
    for (let i = 0; i < 8; i++) items.insert({ id: `x${i}` });
    const first = items.page({ limit: 4 });
    expect(first.items.map((item) => item.id)).toEqual(['x7', 'x6', 'x5', 'x4']);
    expect(first.hasMore).toBe(true);
    const last = items.page({ limit: 4, before: first.nextBefore });
    expect(last.items.map((item) => item.id)).toEqual(['x3', 'x2', 'x1', 'x0']);
    expect(last.hasMore).toBe(false);
    expect(last.nextBefore).toBeUndefined();
    // A collection of exactly one page: no next page either.
    const single = new Collection<{ id: string }>(next);
    for (let i = 0; i < 3; i++) single.insert({ id: `s${i}` });
    expect(single.page({ limit: 3 })).toMatchObject({ hasMore: false, nextBefore: undefined });
  });

  it('refuses an id it already holds and keeps the stored object', () => {
    const items = new Collection<{ id: string; kind: string }>(next, { filters: { kind: (item) => item.kind } });
    items.insert({ id: 'a', kind: 'first' });
    items.insert({ id: 'b', kind: 'first' });
    expect(() => items.insert({ id: 'a', kind: 'second' })).toThrow(/Duplicate id a/);
    expect(items.get('a')?.kind).toBe('first');
    expect(items.size).toBe(2);
    expect(items.page({ limit: 10 }).items.map((item) => item.id)).toEqual(['b', 'a']);
    expect(items.page({ limit: 10, where: { kind: 'second' } }).items).toEqual([]);
    expect(items.delete('a')).toBe(true);
    expect(items.page({ limit: 10, where: { kind: 'first' } }).items.map((item) => item.id)).toEqual(['b']);
  });

  it('keeps filter indexes right when a filtered field changes', () => {
    const cards = new Collection<{ id: string; agent: string; status: string }>(next, {
      filters: { agent: (c) => c.agent, status: (c) => c.status },
    });
    cards.insert({ id: 'c1', agent: 'x', status: 'active' });
    cards.insert({ id: 'c2', agent: 'x', status: 'active' });
    cards.insert({ id: 'c3', agent: 'y', status: 'active' });
    cards.update('c1', (c) => (c.status = 'frozen'));
    const ids = (where: Record<string, string>) => cards.page({ limit: 10, where }).items.map((c) => c.id);
    expect(ids({ agent: 'x', status: 'active' })).toEqual(['c2']);
    expect(ids({ status: 'frozen' })).toEqual(['c1']);
    expect(ids({ agent: 'x' })).toEqual(['c2', 'c1']);
    cards.delete('c2');
    expect(ids({ agent: 'x' })).toEqual(['c1']);
    expect(() => cards.page({ limit: 1, where: { colour: 'red' } })).toThrow(/Not a filter/);
  });

  it('with named indexes, pages each of them and refuses a combination it does not index', () => {
    const events = new Collection<{ id: string; kind: string; visible?: string }>(next, {
      filters: { kind: (e) => e.kind, visible: (e) => e.visible },
      indexes: [['kind'], ['visible']],
    });
    events.insert({ id: 'e1', kind: 'card.frozen', visible: 'yes' });
    events.insert({ id: 'e2', kind: 'card.frozen' });
    events.insert({ id: 'e3', kind: 'agent.created', visible: 'yes' });
    const ids = (where: Record<string, string>) => events.page({ limit: 10, where }).items.map((e) => e.id);
    expect(ids({ kind: 'card.frozen' })).toEqual(['e2', 'e1']);
    expect(ids({ visible: 'yes' })).toEqual(['e3', 'e1']);
    events.update('e2', (e) => (e.visible = 'yes'));
    expect(ids({ visible: 'yes' })).toEqual(['e3', 'e2', 'e1']);
    expect(() => events.page({ limit: 1, where: { kind: 'card.frozen', visible: 'yes' } })).toThrow(/No index/);
    expect(() => new Collection<{ id: string }>(next, { filters: {}, indexes: [['nope']] })).toThrow(/Not a filter/);
  });
});

describe('cursor', () => {
  it('round-trips a sequence number and refuses foreign text', () => {
    expect(decodeCursor(encodeCursor(123456))).toBe(123456);
    expect(encodeCursor(1)).toMatch(/^cur_/);
    expect(decodeCursor('cur_garbage')).toBeUndefined();
    expect(decodeCursor('abc')).toBeUndefined();
  });
});

describe('clocks', () => {
  it('a frozen base stands still and an offset clock only moves forward', () => {
    const base = new BaseClock({ frozenAt: '2026-01-01T00:00:00Z' });
    const clock = new OffsetClock(base);
    expect(base.frozen).toBe(true);
    expect(clock.now()).toBe(Date.parse('2026-01-01T00:00:00Z'));
    clock.moveTo(clock.now() + 5000);
    clock.moveTo(clock.now() - 1000);
    expect(clock.offsetMs).toBe(5000);
  });

  it('an unfrozen base follows the injected wall time', () => {
    let wall = 1000;
    const clock = new OffsetClock(new BaseClock({ wall: () => wall }), 50);
    wall = 2000;
    expect(clock.now()).toBe(2050);
  });
});

describe('Scheduler', () => {
  it('runs due jobs in time order, each at its own instant, during an advance', async () => {
    const clock = new OffsetClock(new BaseClock({ frozenAt: 0 }));
    const scheduler = new Scheduler(clock);
    const runs: string[] = [];
    scheduler.schedule(300, () => runs.push(`c@${clock.now()}`));
    scheduler.schedule(100, () => {
      runs.push(`a@${clock.now()}`);
      // Work scheduled by a job inside the advanced span runs in the same advance, in order.
      scheduler.schedule(200, () => runs.push(`b@${clock.now()}`));
    });
    const late = scheduler.schedule(900, () => runs.push('late'));
    const cancelled = scheduler.schedule(150, () => runs.push('cancelled'));
    cancelled.cancel();
    await scheduler.advance(500);
    expect(runs).toEqual(['a@100', 'b@200', 'c@300']);
    expect(clock.now()).toBe(500);
    expect(scheduler.nextDueAt()).toBe(late.dueAt);
  });

  it('waits for tracked I/O before moving past it, so its follow-up work runs in the same advance', async () => {
    const clock = new OffsetClock(new BaseClock({ frozenAt: 0 }));
    const scheduler = new Scheduler(clock);
    const runs: number[] = [];
    scheduler.schedule(0, () => {
      scheduler.track(
        Promise.resolve().then(() => {
          scheduler.schedule(clock.now() + 60, () => runs.push(clock.now()));
        }),
      );
    });
    await scheduler.advance(100);
    expect(runs).toEqual([60]);
  });

  it('stops waiting for tracked I/O at maxWaitMs: runs the rest at once, moves to its target, names what is pending', async () => {
    const clock = new OffsetClock(new BaseClock({ frozenAt: 0 }));
    const scheduler = new Scheduler(clock);
    const runs: number[] = [];
    // An attempt that never ends, started at 0; more work due at 60 and 120.
    scheduler.schedule(0, () => scheduler.track(new Promise(() => undefined), 'webhook delivery whd_hanging'));
    scheduler.schedule(60, () => runs.push(clock.now()));
    scheduler.schedule(120, () => runs.push(clock.now()));
    const started = performance.now();
    const result = await scheduler.advance(1_000, { maxWaitMs: 50 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result).toEqual({ pending: ['webhook delivery whd_hanging'] });
    // Each job still ran at its own instant, and the clock moved by exactly the advance.
    expect(runs).toEqual([60, 120]);
    expect(clock.now()).toBe(1_000);
    // A later advance stops at its own limit too, and still names the attempt that has not ended.
    expect(await scheduler.advance(1, { maxWaitMs: 0 })).toEqual({ pending: ['webhook delivery whd_hanging'] });
    // I/O that ends within the limit leaves nothing pending.
    const settled = new Scheduler(new OffsetClock(new BaseClock({ frozenAt: 0 })));
    settled.schedule(0, () => settled.track(Promise.resolve(), 'webhook delivery whd_quick'));
    expect(await settled.advance(10, { maxWaitMs: 1_000 })).toEqual({ pending: [] });
  });
});

describe('Scheduler on a running clock', () => {
  it('adds exactly the advance to the offset, however long the due jobs take in wall time', async () => {
    let wall = 1_000;
    const clock = new OffsetClock(new BaseClock({ wall: () => wall }));
    const scheduler = new Scheduler(clock);
    // A job that takes 5 ms of wall time while the clock is advanced.
    scheduler.schedule(1_000 + 60_000, () => {
      wall += 5;
    });
    await scheduler.advance(3_600_000);
    expect(clock.offsetMs).toBe(3_600_000);
  });
});

describe('IdempotencyCache', () => {
  it('replays the same fingerprint, refuses another, and forgets keys after 24 hours of its clock', async () => {
    const clock = new OffsetClock(new BaseClock({ frozenAt: 0 }));
    const cache = new IdempotencyCache(clock);
    const first = cache.begin('k', 'f1');
    expect(first.kind).toBe('new');
    if (first.kind === 'new') first.complete({ status: 201, headers: [], body: '{}' });
    const again = cache.begin('k', 'f1');
    expect(again.kind).toBe('replay');
    if (again.kind === 'replay') expect((await again.response)?.status).toBe(201);
    expect(cache.begin('k', 'f2').kind).toBe('reused');
    clock.moveTo(IDEMPOTENCY_TTL_MS);
    expect(cache.begin('k', 'f2').kind).toBe('new');
  });
});

describe('RateLimiter', () => {
  it('allows the limit per key per minute and reports what is left', () => {
    const limiter = new RateLimiter(2);
    expect(limiter.take('a', 0)).toMatchObject({ allowed: true, remaining: 1, limit: 2 });
    expect(limiter.take('a', 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take('a', 2000)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 58 });
    expect(limiter.take('b', 2000).allowed).toBe(true);
    expect(limiter.take('a', 60_000).allowed).toBe(true);
  });

  it('parses the tiers and numbers', () => {
    expect(parseRateLimit('standard')).toBe(100);
    expect(parseRateLimit('pro')).toBe(1000);
    expect(parseRateLimit('7')).toBe(7);
    expect(() => parseRateLimit('fast')).toThrow();
    expect(() => parseRateLimit(0)).toThrow();
  });

  it('refuses a limit the RateLimit-Limit header (an int32 in the spec) cannot carry', () => {
    expect(parseRateLimit('2147483647')).toBe(2147483647);
    expect(() => parseRateLimit('2147483648')).toThrow(/from 1 to 2147483647, got 2147483648/);
    expect(() => parseRateLimit('99999999999999999999')).toThrow(/from 1 to 2147483647/);
    expect(() => parseRateLimit(1e308)).toThrow(/from 1 to 2147483647/);
  });
});

describe('ids', () => {
  it('uses the spec prefixes and a seed makes them reproducible', () => {
    const a = new IdFactory(seededRandom('s'));
    const b = new IdFactory(seededRandom('s'));
    expect(a.next('card')).toBe(b.next('card'));
    expect(a.next('customer')).toMatch(/^cus_[0-9A-Za-z]{20}$/);
    expect(a.webhookSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(a.apiKey('live')).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
  });

  it('takes secrets and card data from Web Crypto, and object ids and Request-Ids from a source that needs no set-up', () => {
    const ids = new IdFactory();
    const getRandomValues = vi.spyOn(crypto, 'getRandomValues');
    try {
      const unique = new Set(Array.from({ length: 2000 }, () => ids.next('card')));
      expect(unique.size).toBe(2000);
      for (const id of unique) expect(id).toMatch(/^card_[0-9A-Za-z]{20}$/);
      expect(newRequestId()).toMatch(/^req_[0-9A-Za-z]{16}$/);
      expect(getRandomValues).not.toHaveBeenCalled();
      // A pool is drawn from, refilled every 4 KiB: enough secrets to need a refill.
      const secrets = Array.from({ length: 200 }, () => [ids.apiKey('test'), ids.webhookSecret(), ids.digits(16)]);
      expect(getRandomValues).toHaveBeenCalled();
      expect(new Set(secrets.flat()).size).toBe(600);
    } finally {
      getRandomValues.mockRestore();
    }
  });

  it('draws every base62 character for ids, evenly enough', () => {
    const ids = new IdFactory();
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const char of ids.next('card').slice(5)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 40,000 characters, 645 expected each: far from either bound unless the draw is skewed.
    for (const count of counts.values()) expect(count).toBeGreaterThan(450);
    for (const count of counts.values()) expect(count).toBeLessThan(850);
  });

  it('draws Request-Ids unique, with every base62 character evenly at every position', () => {
    const requestIds = Array.from({ length: 6200 }, () => newRequestId());
    expect(new Set(requestIds).size).toBe(requestIds.length);
    // Five characters come from one draw: a skew would show at some position of the five (or the sixteenth).
    for (let position = 4; position < 20; position++) {
      const counts = new Map<string, number>();
      for (const id of requestIds) counts.set(id[position] as string, (counts.get(id[position] as string) ?? 0) + 1);
      expect(counts.size).toBe(62);
      // 100 expected each (standard deviation about 10): past either bound only when the draw is skewed.
      for (const count of counts.values()) expect(count).toBeGreaterThan(45);
      for (const count of counts.values()) expect(count).toBeLessThan(160);
    }
  });
});

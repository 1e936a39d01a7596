// The group commit of core/state/group-commit.ts on its own: what waits for a batch is released only after that batch's
// flush ran, once per batch; with a flush that takes time (a store whose commit is a round trip, as a database server's
// would be), what changes meanwhile is the next batch, flushed when the first settles, never before.
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/core/state/group-commit.js';

/** A schedule that runs a batch's commit only when the test says so. */
function manualSchedule() {
  const queued: (() => void)[] = [];
  return {
    schedule: (commit: () => void) => queued.push(commit),
    runNext: () => queued.shift()?.(),
    get pending() {
      return queued.length;
    },
  };
}

describe('group commit', () => {
  it('releases every waiter of a batch after one flush, and none before it', async () => {
    const turns = manualSchedule();
    const flushed: number[] = [];
    let changes = 0;
    const group = new GroupCommit(() => {
      flushed.push(changes);
    }, turns.schedule);
    const released: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      changes++;
      void group.committed().then(() => released.push(name));
    }
    // One commit scheduled for the three.
    expect(turns.pending).toBe(1);
    await Promise.resolve();
    expect(released).toEqual([]);
    turns.runNext();
    await Promise.resolve();
    expect(flushed).toEqual([3]);
    expect(released).toEqual(['a', 'b', 'c']);
  });

  it('with a flush that returns a promise, gathers what comes meanwhile into the next batch', async () => {
    const turns = manualSchedule();
    const flushes: { waiters: number; done: () => void }[] = [];
    let waiting = 0;
    const group = new GroupCommit(
      () =>
        new Promise<void>((done) => {
          flushes.push({ waiters: waiting, done });
          waiting = 0;
        }),
      turns.schedule,
    );
    const released: string[] = [];
    const wait = (name: string) => {
      waiting++;
      void group.committed().then(() => released.push(name));
    };
    wait('first');
    turns.runNext();
    expect(flushes).toHaveLength(1);
    // In flight: these wait, and no second flush starts while the first runs.
    wait('second');
    wait('third');
    group.changed();
    expect(turns.pending).toBe(0);
    await Promise.resolve();
    expect(released).toEqual([]);
    flushes[0]?.done();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toEqual(['first']);
    // The first settled: the next batch is scheduled, and holds the two that came meanwhile.
    expect(turns.pending).toBe(1);
    turns.runNext();
    expect(flushes[1]?.waiters).toBe(2);
    flushes[1]?.done();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(released).toEqual(['first', 'second', 'third']);
    await group.settled();
  });

  it('releases the waiters of a flush that throws: they read the refusal it recorded', async () => {
    const turns = manualSchedule();
    const group = new GroupCommit(() => {
      throw new Error('disk full');
    }, turns.schedule);
    const done = group.committed();
    turns.runNext();
    await expect(done).resolves.toBeUndefined();
  });
});

import type { TenantStore } from '../directory.js';
import type { Tenant } from '../tenant.js';
import { SnapshotBuilder } from './builder.js';
import { StateUnavailable, STATE_DIRECTORY } from '../errors.js';
import { ChangeTracker, type StateJournal } from './change-tracker.js';
import { DueWaker } from './due-waker.js';
import { GroupCommit } from './group-commit.js';
import { savedTenantLines } from './lines.js';
import type { DurableState, DurableStateOptions } from './durable-contract.js';
import { sharedState } from './shared-state.js';
import type { MockSnapshot, StateLine } from './model.js';

export type { AnswerCommits, DurableState, DurableStateOptions } from './durable-contract.js';

/** Tenants read per turn of the event loop while waking those whose work is due, so requests keep being answered. */
const WAKE_SLICE = 8;

/**
 * Wires a durable store (StateJournal) into a mock: each request's changes committed before its answer (a refused
 * commit drops what it held from memory too and answers 503), tenants read from the store on demand when it keeps
 * them all, their due work woken on time, and the whole state for `snapshot()` (docs/standalone-server.md).
 */
export function durableState(journal: StateJournal | undefined, options: DurableStateOptions): DurableState {
  if (!journal) return inMemory(options);
  if (journal.shared) return sharedState(journal.shared, options);
  const tracker = new ChangeTracker(
    journal,
    options.serverState,
    (refused) => {
      // Nothing of a refused commit is kept: its tenants leave memory and are read again, as stored, when needed.
      for (const tenant of refused.tenants) options.directory().drop(tenant);
    },
    () => group.changed(),
  );
  const group = new GroupCommit(
    () => {
      try {
        tracker.commit();
      } catch {
        // Refused: counted by the tracker, its tenants dropped; the answers that waited read it.
      }
    },
    journal.scheduleCommit?.bind(journal) ?? ((commit) => setTimeout(commit, 0)),
  );
  const refusal = () => tracker.lastRefusal?.message ?? 'a commit was refused';
  const stored = journal.tenants;
  const waker = stored
    ? new DueWaker(stored, {
        directory: options.directory,
        serverNow: options.serverNow,
        frozen: options.frozen,
        slice: WAKE_SLICE,
      })
    : undefined;

  const tenantStore: TenantStore | undefined = stored && {
    ownerOfKey: (digest) => stored.ownerOfKey(digest),
    load(tenantKey, restore) {
      const saved = stored.read(tenantKey);
      if (!saved) return undefined;
      const tenant = tracker.quietly(() => restore(saved.tenant, saved.sharedOffsetMs));
      // A due time the store does not know (an imported state) or that changed is written with the next commit.
      if (saved.dueAt !== (tenant.scheduler.resumeAt() ?? null)) tracker.header(tenant);
      return tenant;
    },
    release(tenant) {
      // Its header and next due time are written even when nothing else changed: the store wakes it with them.
      tracker.header(tenant);
      try {
        tracker.commit();
      } catch {
        return false;
      }
      waker?.rearm();
      return true;
    },
  };

  return {
    changes: tracker,
    tenantStore,
    quietly: (work) => tracker.quietly(work),
    get refusals() {
      return tracker.refusals;
    },
    commitAnswer(method, refusalsBefore) {
      // A commit refused while a write was in flight may have held its changes (or dropped the tenant it changed).
      const write = method !== 'GET' && method !== 'HEAD';
      if (!tracker.pending) return write && tracker.refusals !== refusalsBefore ? refusal() : undefined;
      // Changes wait, this request's or others' it may have read: the answer leaves after the commit that holds them,
      // and not at all (503) when that commit is refused.
      const refusalsAtWait = tracker.refusals;
      return group.committed().then(() => {
        if (tracker.refusals !== refusalsAtWait || (write && tracker.refusals !== refusalsBefore)) return refusal();
        return undefined;
      });
    },
    commit: () => tracker.commit(),
    settled: () => group.settled(),
    snapshot() {
      tracker.commit();
      return wholeState(options, stored);
    },
    restored() {
      tracker.discard();
      commitWhole(journal, [['reset'], ...stateLines(options)]);
      waker?.rearm();
    },
    reset() {
      tracker.discard();
      commitWhole(journal, [['reset'], ['server', options.serverState()]]);
      waker?.rearm();
    },
    beforeAdvance(ms) {
      waker?.loadDueBy(options.serverNow() + ms);
    },
    start() {
      if (stored) tracker.quietly(() => options.putBackServer(stored.server()));
      waker?.start();
    },
    stop() {
      waker?.stop();
    },
  };
}

/**
 * Replaces the store's whole state (a restore, a reset) in one commit. A store that refuses it (a full disk, a file it
 * cannot write) kept nothing of it: StateUnavailable, 503 `state_not_saved` where it reaches HTTP, as any refused
 * commit is, and never taken for a fault of the snapshot.
 */
function commitWhole(journal: StateJournal, lines: StateLine[]): void {
  try {
    journal.commit(lines);
  } catch (error) {
    throw StateUnavailable.of(error, STATE_DIRECTORY);
  }
}

/** Without a store: nothing to commit, the state is what memory holds. */
function inMemory(options: DurableStateOptions): DurableState {
  return {
    changes: undefined,
    tenantStore: undefined,
    quietly: (work) => work(),
    refusals: 0,
    commitAnswer: () => undefined,
    commit: () => undefined,
    settled: () => Promise.resolve(),
    snapshot: () => wholeState(options, undefined),
    restored: () => undefined,
    reset: () => undefined,
    beforeAdvance: () => undefined,
    start: () => undefined,
    stop: () => undefined,
  };
}

/** A tenant in memory as state lines: its header, its records, its idempotency keys and its next due work. */
function* tenantLines(tenant: Tenant): Generator<StateLine> {
  const key = tenant.key;
  yield ['tenant', key, tenant.header()];
  for (const [name, collection] of tenant.collections()) {
    for (const [seq, record] of collection.entries()) yield ['put', key, name, seq, record];
  }
  for (const record of tenant.idempotency.records()) yield ['idempotency', key, record];
  yield ['due', key, tenant.scheduler.resumeAt() ?? null];
}

/** The server-wide state and every tenant in memory, as lines. */
export function* stateLines(options: Pick<DurableStateOptions, 'directory' | 'serverState'>): Generator<StateLine> {
  yield ['server', options.serverState()];
  for (const tenant of [...options.directory().tenants()]) yield* tenantLines(tenant);
}

/** The whole state: the tenants in memory, then those a store keeps out of memory (read, not loaded). */
function wholeState(options: DurableStateOptions, stored: StateJournal['tenants']): MockSnapshot {
  const builder = new SnapshotBuilder();
  for (const line of stateLines(options)) builder.apply(line);
  if (stored) {
    const directory = options.directory();
    const sharedOffsetMs = directory.sharedOffsetMs;
    for (const key of stored.keys()) {
      if (directory.has(key)) continue;
      const saved = stored.read(key);
      if (!saved) continue;
      // Server-wide advances made since it was saved apply to its clock, as when it comes back into memory.
      const tenant = { ...saved.tenant, clockOffsetMs: saved.tenant.clockOffsetMs + sharedOffsetMs - saved.sharedOffsetMs };
      for (const line of savedTenantLines(tenant)) builder.apply(line);
    }
  }
  return builder.toSnapshot();
}

// A durable store in memory that keeps every tenant, as the SQLite store does (StateJournal with `tenants`): commits
// are kept as JSON text, tenants are read from them on demand, due times are indexed. It lets the state tests run the
// mock's lazy loading on every Node, node:sqlite or not.
import { SnapshotBuilder } from '../../src/core/state/builder.js';
import type { StateJournal } from '../../src/core/state/change-tracker.js';
import { type MockSnapshot, type StateLine, tenantKey, type TenantSnapshot } from '../../src/core/state/model.js';
import type { StoredTenant } from '../../src/core/state/stored-tenants.js';

interface Saved {
  sharedOffsetMs: number;
  dueAt: number | null | undefined;
}

export interface MemoryStore extends StateJournal {
  /** Every commit, as a store would have written it. */
  commits: StateLine[][];
  /** The state the commits build. */
  rebuilt(): MockSnapshot;
  /** How many tenants were read from it. */
  reads: number;
}

export function memoryStore(): MemoryStore {
  const commits: StateLine[][] = [];
  const saved = new Map<string, Saved>();
  let shared = 0;
  let random: MockSnapshot['random'] = null;
  const rebuilt = (): MockSnapshot => {
    const builder = new SnapshotBuilder();
    for (const commit of commits) for (const line of commit) builder.apply(line);
    return builder.toSnapshot();
  };
  const tenantOf = (key: string): TenantSnapshot | undefined =>
    rebuilt().tenants.find((tenant) => tenantKey(tenant.organizationId, tenant.mode) === key);
  const wakeAt = (key: string): number | undefined => {
    const entry = saved.get(key);
    const tenant = tenantOf(key);
    if (!entry || !tenant) return undefined;
    if (entry.dueAt === undefined) return 0;
    return entry.dueAt === null ? undefined : entry.dueAt - tenant.clockOffsetMs + entry.sharedOffsetMs;
  };
  const store: MemoryStore = {
    commits,
    reads: 0,
    rebuilt,
    commit(lines) {
      const copy = JSON.parse(JSON.stringify(lines)) as StateLine[];
      for (const line of copy) {
        if (line[0] === 'server') {
          shared = line[1].sharedOffsetMs;
          random = line[1].random;
        }
        if (line[0] === 'reset') {
          saved.clear();
          shared = 0;
        }
        if (line[0] === 'tenant') saved.set(line[1], { sharedOffsetMs: shared, dueAt: saved.get(line[1])?.dueAt });
        if (line[0] === 'due') {
          const entry = saved.get(line[1]);
          if (entry) entry.dueAt = line[2];
        }
      }
      commits.push(copy);
    },
    tenants: {
      server: () => ({ sharedOffsetMs: shared, random }),
      ownerOfKey(digest) {
        for (const tenant of rebuilt().tenants) {
          const keys = (tenant.collections.apiKeys ?? []) as [number, { digest: string }][];
          if (keys.some(([, record]) => record.digest === digest)) return tenantKey(tenant.organizationId, tenant.mode);
        }
        return undefined;
      },
      read(key): StoredTenant | undefined {
        const tenant = tenantOf(key);
        const entry = saved.get(key);
        if (!tenant || !entry) return undefined;
        store.reads++;
        return { tenant, sharedOffsetMs: entry.sharedOffsetMs, dueAt: entry.dueAt };
      },
      keys: () => [...saved.keys()],
      dueBy(at, skip, limit) {
        return [...saved.keys()]
          .map((key) => ({ key, wake: wakeAt(key) }))
          .filter(
            (entry): entry is { key: string; wake: number } => entry.wake !== undefined && entry.wake <= at && !skip(entry.key),
          )
          .sort((a, b) => a.wake - b.wake)
          .slice(0, limit)
          .map((entry) => entry.key);
      },
      nextDue(skip) {
        const wakes = [...saved.keys()]
          .filter((key) => !skip(key))
          .map(wakeAt)
          .filter((wake): wake is number => wake !== undefined);
        return wakes.length === 0 ? undefined : Math.min(...wakes);
      },
    },
  };
  return store;
}

/** A memory store whose commits fail, as a full disk's do, while `refusing` is true. */
export interface RefusingStore {
  journal: StateJournal;
  refusing: boolean;
}

export function refusingStore(): RefusingStore {
  const store = memoryStore();
  const refusal: RefusingStore = {
    refusing: false,
    journal: {
      tenants: store.tenants,
      commit: (lines) => {
        if (refusal.refusing) throw new Error('database or disk is full');
        store.commit(lines);
      },
    },
  };
  return refusal;
}

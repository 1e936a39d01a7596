import type { Tenant, TenantChangeSink } from '../tenant.js';
import type { MockSnapshot, RandomPosition, StateLine } from './model.js';

/** What a durable store may ask of the mock it is attached to. */
export interface JournalAccess {
  /** The whole state as lines; tenants kept out of memory appear as their `evicted` references. */
  lines(): Generator<StateLine>;
  /** Puts back a state read from the store, without writing it again. */
  restore(snapshot: MockSnapshot): void;
  /** Hands the changes not yet committed to the store now. */
  commit(): void;
}

/**
 * Where a durable store takes the state (the Node server's `--state`, see adapters/state-store.ts). The mock calls
 * `commit` with the changes made since the last call before it sends each answer, and after due work or a webhook
 * attempt changed something; the store must have them safe (or throw) when it returns.
 */
export interface StateJournal {
  /** Called once, when the mock is created: how the store reads the state and puts a saved one back. */
  attach?(access: JournalAccess): void;
  /**
   * Keeps one commit: the lines of what changed since the last one, in order. Applied after the earlier commits they
   * give the state. Throw when they cannot be kept: the request is answered with a 500 and every later commit fails.
   */
  commit(lines: StateLine[]): void;
  /** Keeps the lines of a tenant leaving memory and names where they are; without it, eviction forgets. */
  evict?(tenantKey: string, lines: StateLine[]): string;
  /** Reads back the lines `evict` kept. */
  load?(ref: string): StateLine[];
}

interface TenantChanges {
  records: Map<string, Set<string>>;
  idempotency: Set<string> | undefined;
}

/**
 * Collects what changed, by record, between two commits, and turns it into state lines: each changed record is
 * written whole as it is at commit time (or deleted), so a commit costs what changed, never the size of the state.
 */
export class ChangeTracker implements TenantChangeSink {
  readonly #tenants = new Map<Tenant, TenantChanges>();
  #server = false;
  #paused = 0;
  #lastRandom: string | undefined;
  #scheduled = false;
  /** A commit the store refused: every later commit fails too, so no request answers as if it were saved. */
  #failure: unknown;

  constructor(
    private readonly journal: StateJournal,
    private readonly serverState: () => { sharedOffsetMs: number; random: RandomPosition | null },
  ) {
    this.#lastRandom = randomMark(serverState().random);
  }

  record(tenant: Tenant, collection: string, id: string): void {
    if (this.#paused > 0) return;
    const changes = this.#of(tenant);
    let ids = changes.records.get(collection);
    if (!ids) {
      ids = new Set();
      changes.records.set(collection, ids);
    }
    ids.add(id);
  }

  header(tenant: Tenant): void {
    if (this.#paused > 0) return;
    this.#of(tenant);
  }

  idempotency(tenant: Tenant, key: string): void {
    if (this.#paused > 0) return;
    const changes = this.#of(tenant);
    changes.idempotency ??= new Set();
    changes.idempotency.add(key);
  }

  /** Server-wide state changed (the shared clock advance). */
  server(): void {
    if (this.#paused > 0) return;
    this.#server = true;
    this.#schedule();
  }

  /** Lines that must be written before the changes collected so far (tenants leaving or coming back). */
  structural(line: StateLine): void {
    this.commit();
    this.journal.commit([line]);
  }

  /** Runs `work` without recording its changes (restoring saved state, whose lines are already stored). */
  quietly<T>(work: () => T): T {
    this.#paused++;
    try {
      return work();
    } finally {
      this.#paused--;
    }
  }

  /** Forgets what was collected (everything it names is gone: reset). */
  discard(): void {
    this.#tenants.clear();
    this.#server = false;
  }

  /** Writes what changed since the last commit; nothing when nothing did. Throws when the store could not write. */
  commit(): void {
    if (this.#failure !== undefined) throw this.#failure;
    const server = this.serverState();
    const mark = randomMark(server.random);
    if (this.#tenants.size === 0 && !this.#server && mark === this.#lastRandom) return;
    const lines: StateLine[] = [];
    if (this.#server || mark !== this.#lastRandom) lines.push(['server', server]);
    for (const [tenant, changes] of this.#tenants) {
      const key = tenant.key;
      lines.push(['tenant', key, tenant.header()]);
      for (const [name, ids] of changes.records) {
        const collection = tenant.collection(name);
        for (const id of ids) {
          const seq = collection?.seqOf(id);
          if (collection && seq !== undefined) lines.push(['put', key, name, seq, collection.get(id)]);
          else lines.push(['delete', key, name, id]);
        }
      }
      if (changes.idempotency) {
        for (const idempotencyKey of changes.idempotency) {
          const record = tenant.idempotency.record(idempotencyKey);
          if (record) lines.push(['idempotency', key, record]);
        }
      }
    }
    this.#tenants.clear();
    this.#server = false;
    this.#lastRandom = mark;
    try {
      this.journal.commit(lines);
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }

  #of(tenant: Tenant): TenantChanges {
    let changes = this.#tenants.get(tenant);
    if (!changes) {
      changes = { records: new Map(), idempotency: undefined };
      this.#tenants.set(tenant, changes);
      this.#schedule();
    }
    return changes;
  }

  /**
   * Changes made outside a request (due work on a running clock, a webhook attempt's outcome) are committed right
   * after the code that made them; inside a request, its answer commits first and this finds nothing left.
   */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      try {
        this.commit();
      } catch {
        // The store reports its own failure (and stops the server); nobody waits on this commit.
      }
    });
  }
}

function randomMark(position: RandomPosition | null): string | undefined {
  return position === null ? undefined : `${position.counter}:${position.pool.length}`;
}

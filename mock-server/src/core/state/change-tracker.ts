import type { Tenant, TenantChangeSink } from '../tenant.js';
import type { MockSnapshot, RandomPosition, ServerState, StateLine } from './model.js';
import type { StoredTenants } from './stored-tenants.js';
import type { SharedStore } from './shared-store.js';

/** What a durable store may ask of the mock it is attached to. */
export interface JournalAccess {
  /** The state of the tenants in memory as lines (a store that keeps every tenant has the others already). */
  lines(): Generator<StateLine>;
  /** Puts back a state read from the store, without writing it again. */
  restore(snapshot: MockSnapshot): void;
  /** Hands the changes not yet committed to the store now. */
  commit(): void;
}

/**
 * Where a durable store takes the state (the Node server's `--state`, see adapters/sqlite/). The mock calls `commit`
 * with the changes made since the last call before it sends the answers that waited for them (group commit:
 * group-commit.ts), and after due work or a webhook attempt changed something; the store must have them safe (or
 * throw, having kept none of them) when it returns.
 */
export interface StateJournal {
  /** Called once, when the mock is created: how the store reads the state and puts a saved one back. */
  attach?(access: JournalAccess): void;
  /**
   * Keeps one commit: the lines of what changed since the last one, in order. Applied after the earlier commits they
   * give the state. Throws when they cannot be kept, having kept none of them: the mock then forgets, in memory too,
   * what they held (the tenants they touch are read again from the store) and the request is answered 503.
   */
  commit(lines: StateLine[]): void;
  /**
   * Closes a batch of the group commit: `commit` commits everything changed up to the moment it runs, and every answer
   * waiting on it leaves after it. A synchronous store runs it once the current turn of the event loop is over
   * (Node's `setImmediate`: every request whose bytes arrived in that turn is then in one transaction). Default: a
   * timer of 0 ms.
   */
  scheduleCommit?(commit: () => void): void;
  /**
   * A store that keeps every tenant: the mock then loads tenants on demand instead of holding them all, and may let
   * idle ones leave memory (docs/standalone-server.md#organizations-load-on-demand).
   */
  tenants?: StoredTenants | undefined;
  /**
   * A store several processes share (a PostgreSQL state): each organization's requests then run under its lock in the
   * store and are committed by it (org-gate.ts); `commit` is not called.
   * @internal
   */
  shared?: SharedStore | undefined;
}

interface TenantChanges {
  /** Changed record ids by collection, with each one's sequence number (what a deleted one is found by). */
  records: Map<string, Map<string, number>>;
  idempotency: Set<string> | undefined;
}

/** A commit the store refused: what it held is not kept, in the store or (once the tenants are dropped) in memory. */
export class CommitRefusedError extends Error {
  constructor(
    cause: unknown,
    /** The tenants whose changes the commit held. */
    readonly tenants: readonly Tenant[],
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'CommitRefusedError';
  }
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
  #refusals = 0;
  #lastRefusal: CommitRefusedError | undefined;

  constructor(
    private readonly journal: StateJournal,
    private readonly serverState: () => ServerState,
    /** Told of every refused commit, before it is thrown: the tenants it held must be dropped from memory. */
    private readonly onRefused: (error: CommitRefusedError) => void = () => undefined,
    /** Told when changes wait to be committed (of that tenant, or server-wide): a commit must follow (the group commit's). */
    private readonly onChange: (tenant?: Tenant) => void = () => undefined,
  ) {
    this.#lastRandom = randomMark(serverState().random);
  }

  /** How many commits the store refused so far: a request that saw this change while in flight answers 503. */
  get refusals(): number {
    return this.#refusals;
  }

  /** Whether anything changed since the last commit (the next one would write something). */
  get pending(): boolean {
    return this.#tenants.size > 0 || this.#server || randomMark(this.serverState().random) !== this.#lastRandom;
  }

  /** The last commit the store refused. */
  get lastRefusal(): CommitRefusedError | undefined {
    return this.#lastRefusal;
  }

  record(tenant: Tenant, collection: string, id: string, seq: number): void {
    if (this.#paused > 0 || tenant.detached) return;
    const changes = this.#of(tenant);
    let ids = changes.records.get(collection);
    if (!ids) {
      ids = new Map();
      changes.records.set(collection, ids);
    }
    ids.set(id, seq);
  }

  header(tenant: Tenant): void {
    if (this.#paused > 0 || tenant.detached) return;
    this.#of(tenant);
  }

  idempotency(tenant: Tenant, key: string): void {
    if (this.#paused > 0 || tenant.detached) return;
    const changes = this.#of(tenant);
    changes.idempotency ??= new Set();
    changes.idempotency.add(key);
  }

  /** Server-wide state changed (the shared clock advance). */
  server(): void {
    if (this.#paused > 0) return;
    this.#server = true;
    this.onChange();
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

  /**
   * Writes what changed since the last commit; nothing when nothing did. Throws CommitRefusedError when the store
   * could not write it (after telling `onRefused`).
   */
  commit(): void {
    const server = this.serverState();
    const mark = randomMark(server.random);
    const serverChanged = this.#server || mark !== this.#lastRandom;
    if (this.#tenants.size === 0 && !serverChanged) return;
    const lines: StateLine[] = [];
    if (serverChanged) lines.push(['server', server]);
    const tenants: Tenant[] = [];
    for (const [tenant, changes] of this.#tenants) {
      if (tenant.detached) continue;
      tenants.push(tenant);
      lines.push(...tenantChangeLines(tenant, changes));
    }
    this.#tenants.clear();
    this.#server = false;
    this.#lastRandom = mark;
    try {
      this.journal.commit(lines);
    } catch (cause) {
      // Server-wide state is not dropped with the tenants: it is written again with the next commit.
      if (serverChanged) {
        this.#server = true;
        this.#lastRandom = undefined;
      }
      this.#refusals++;
      const error = new CommitRefusedError(cause, tenants);
      this.#lastRefusal = error;
      this.onRefused(error);
      throw error;
    }
  }

  #of(tenant: Tenant): TenantChanges {
    let changes = this.#tenants.get(tenant);
    if (!changes) {
      changes = { records: new Map(), idempotency: undefined };
      this.#tenants.set(tenant, changes);
      // Committed by the group commit it is reported to (group-commit.ts): inside a request, with the other requests
      // answered in the same batch, before their answers; outside one, with the batch open when it was made.
      this.onChange(tenant);
    }
    return changes;
  }

  /**
   * The lines of what changed in these tenants since their last commit, taken out of what waits (a shared store
   * commits each organization's changes with the batch that holds its lock: core/state/org-gate.ts).
   */
  take(tenants: Iterable<Tenant>): StateLine[] {
    const lines: StateLine[] = [];
    for (const tenant of tenants) {
      const changes = this.#tenants.get(tenant);
      if (!changes) continue;
      this.#tenants.delete(tenant);
      if (!tenant.detached) lines.push(...tenantChangeLines(tenant, changes));
    }
    return lines;
  }

  /** Whether changes of this tenant wait to be committed. */
  changed(tenant: Tenant): boolean {
    return this.#tenants.has(tenant);
  }
}

/** A changed tenant's lines: its header, its changed records as they are now, its idempotency keys, its next due work. */
function* tenantChangeLines(tenant: Tenant, changes: TenantChanges): Generator<StateLine> {
  const key = tenant.key;
  yield ['tenant', key, tenant.header()];
  for (const [name, ids] of changes.records) {
    const collection = tenant.collection(name);
    for (const [id, lastSeq] of ids) {
      const seq = collection?.seqOf(id);
      if (collection && seq !== undefined) yield ['put', key, name, seq, collection.get(id)];
      else yield ['delete', key, name, id, lastSeq];
    }
  }
  if (changes.idempotency) {
    for (const idempotencyKey of changes.idempotency) {
      const record = tenant.idempotency.record(idempotencyKey);
      yield record ? ['idempotency', key, record] : ['forget', key, idempotencyKey];
    }
  }
  yield ['due', key, tenant.scheduler.resumeAt() ?? null];
}

function randomMark(position: RandomPosition | null): string | undefined {
  return position === null ? undefined : `${position.counter}:${position.pool.length}`;
}

import type { Directory } from '../directory.js';
import type { Tenant } from '../tenant.js';
import type { ChangeTracker } from './change-tracker.js';
import { refreshCopy, tenantsOf } from './copy-refresh.js';
import type { Batch } from './gate-batch.js';
import type { OrganizationCommit, OrganizationSession, ServerRow } from './shared-store.js';

/**
 * The copies of organizations a process holds of a shared store: the version of each, the server-wide clock advance
 * each tenant's clock includes, the store's generation; brought up to date under each organization's lock.
 */
export class Copies {
  /** The version of each organization's copy in memory. */
  readonly #versions = new Map<string, number>();
  /** The server-wide clock advance each tenant's clock includes. */
  readonly #included = new Map<string, number>();
  #generation: number | undefined;

  constructor(
    private readonly host: { tracker: ChangeTracker; directory(): Directory },
    /** The store's generation changed: every copy is gone. */
    private readonly onGeneration: () => void,
  ) {}

  /** The version to read rows after (0: the organization is read whole), and the generation it is of. */
  since(org: string): { version: number; generation: number | undefined } {
    return { version: this.#versions.get(org) ?? 0, generation: this.#generation };
  }

  /** Whether this process holds a copy of the organization (one it read or committed). */
  known(org: string): boolean {
    return this.#versions.has(org);
  }

  committed(org: string, version: number): void {
    this.#versions.set(org, version);
  }

  forget(org: string): void {
    this.#versions.delete(org);
  }

  forgetAll(): void {
    this.#versions.clear();
    this.#included.clear();
  }

  /** The copy brought up to date with the rows read under the lock, its clocks with server-wide advances. */
  adopt(org: string, session: OrganizationSession): void {
    const { tracker } = this.host;
    this.serverRow(session.server);
    const directory = this.host.directory();
    if (!session.exists) {
      tracker.quietly(() => {
        for (const tenant of tenantsOf(directory, org)) directory.drop(tenant);
      });
      this.#versions.delete(org);
      return;
    }
    tracker.quietly(() => refreshCopy(directory, org, session.rows, session.whole));
    for (const row of session.rows.tenants) {
      this.#included.set(row.key, row.sharedOffsetMs);
      // A due time the store does not know (an imported state) is written with this batch.
      const tenant = row.dueKnown || !directory.has(row.key) ? undefined : directory.load(row.key);
      if (tenant) tracker.header(tenant);
    }
    this.#versions.set(org, session.version);
    // Server-wide advances made since a tenant's clock was saved: its due work runs on the way, in time order.
    const shared = session.server.sharedOffsetMs;
    for (const tenant of tenantsOf(directory, org)) {
      const behind = shared - (this.#included.get(tenant.key) ?? shared);
      this.#included.set(tenant.key, shared);
      if (behind > 0) tenant.scheduler.catchUp(behind);
    }
  }

  /** The server-wide row as read with a lock: a new generation drops every copy; the advance new tenants start with. */
  serverRow(server: ServerRow): void {
    if (this.#generation !== undefined && this.#generation !== server.generation) {
      this.forgetAll();
      this.onGeneration();
    }
    this.#generation = server.generation;
    const directory = this.host.directory();
    if (directory.sharedOffsetMs !== server.sharedOffsetMs) {
      this.host.tracker.quietly(() => {
        directory.sharedOffsetMs = server.sharedOffsetMs;
      });
    }
  }

  /** What a batch of these tenants writes: their changes, their clocks' server-wide advance, its claims. */
  commitOf(tenants: Tenant[], batch: Batch | undefined): OrganizationCommit {
    const lines = this.host.tracker.take(tenants);
    const shared = this.host.directory().sharedOffsetMs;
    const sharedOffsets = new Map<string, number>();
    for (const tenant of tenants) {
      const included = this.#included.get(tenant.key) ?? shared;
      this.#included.set(tenant.key, included);
      sharedOffsets.set(tenant.key, included);
    }
    return { lines, sharedOffsets, claimsTaken: batch?.taken ?? [], claimsDropped: batch?.dropped ?? [] };
  }
}

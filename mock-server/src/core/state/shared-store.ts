import type { IdempotencyRecord } from '../idempotency.js';
import type { MockSnapshot, StateLine, TenantHeader } from './model.js';

/**
 * A store that several processes share (the PostgreSQL state, adapters/postgres/): each organization's requests run
 * under its lock in the store, on a copy brought up to date from the rows written since the copy's version, and their
 * changes are committed with that lock held (org-gate.ts; docs/standalone-server.md#several-instances-on-one-database).
 * Everything is asynchronous: each call is a round trip.
 */
export interface SharedStore {
  /** This process's id among those on the store (the owner of the claims it takes). */
  readonly instanceId: string;
  /** Where the state is, for messages: `the database at 127.0.0.1:5432/cardrail`. */
  readonly where: string;
  /** The organization (`org_...`) an API key belongs to, by the SHA-256 digest of the key; undefined when none. */
  organizationOfKey(digest: string): Promise<string | undefined>;
  /**
   * Begins an organization's transaction: its lock (waiting for another process's batch to commit), the server-wide
   * row, and its rows written after `since.version` (0: all of them; all of them too when the store's generation is
   * not `since.generation`: a reset or restore happened since the copy was read).
   */
  openOrganization(
    organizationId: string,
    since: { version: number; generation: number | undefined },
  ): Promise<OrganizationSession>;
  /**
   * Begins a transaction for a key no organization holds yet, under a lock on its digest: the organization that stored
   * it meanwhile (another process's first request with it), or a session in which the first request creates one.
   */
  openNewKey(digest: string): Promise<{ owner: string } | { session: NewOrganizationSession }>;
  /** The server-wide row: the generation (reset, restore) and the server-wide clock advance. */
  server(): Promise<ServerRow>;
  /** Adds `ms` to the server-wide clock advance; the row after it. */
  advanceShared(ms: number): Promise<ServerRow>;
  /**
   * Tenants whose scheduled work is due once the server clock (base clock plus the server-wide advance) reads `at`,
   * earliest first, at most `limit`.
   */
  dueTenants(at: number, limit: number): Promise<string[]>;
  /** Organizations holding a claim that expired (its holder died or froze), at most `limit`. */
  expiredClaims(limit: number): Promise<string[]>;
  /** Forgets everything (one transaction, every process's copies dropped at their next request). */
  reset(): Promise<void>;
  /** Replaces everything with a snapshot (one transaction, read back and compared). */
  replace(snapshot: MockSnapshot): Promise<void>;
  /** The whole state, read in one consistent snapshot of the store. */
  snapshot(): Promise<MockSnapshot>;
}

/** The server-wide row of a shared store. */
export interface ServerRow {
  /** Changes with every reset and restore: a process seeing another drops all its copies. */
  generation: number;
  /** Clock advances made through the server-wide clock. */
  sharedOffsetMs: number;
}

/** A claim on a piece of work as stored: who holds it, and for how much longer (database wall clock). */
export interface ClaimRow {
  work: string;
  owner: string;
  token: string;
  /** Milliseconds left of its lease when read (0 or less: expired). */
  remainingMs: number;
}

/** An organization's rows read under its lock: what changed after a copy's version, or all of them (`whole`). */
export interface OrganizationRows {
  /**
   * Tenants whose row changed: their header, the server-wide advance their clock includes, and whether their next due
   * time is stored (not after an import: it is then written once the tenant is in memory).
   */
  tenants: { key: string; header: TenantHeader; sharedOffsetMs: number; dueKnown: boolean }[];
  records: { tenant: string; collection: string; seq: number; record: { id: string } }[];
  idempotency: { tenant: string; record: IdempotencyRecord }[];
  /** Records (by collection and id) and idempotency keys gone since. */
  gone: { tenant: string; collection: string | undefined; id: string }[];
}

/** What a batch writes: its changes, the clocks' server-wide advance, the claims taken and given back. */
export interface OrganizationCommit {
  lines: StateLine[];
  /** The server-wide advance each tenant's clock includes (by tenant key). */
  sharedOffsets: ReadonlyMap<string, number>;
  claimsTaken: { work: string; token: string; leaseMs: number }[];
  claimsDropped: { work: string; token: string }[];
}

/** The transaction of an organization's batch, holding its lock. */
export interface OrganizationSession {
  /** The organization's version in the store. */
  readonly version: number;
  /** False when the store has no such organization (a reset through another process). */
  readonly exists: boolean;
  readonly server: ServerRow;
  /** True when `rows` are every row of the organization (the copy is replaced), not only those since. */
  readonly whole: boolean;
  readonly rows: OrganizationRows;
  readonly claims: ClaimRow[];
  /**
   * Writes the batch and commits: resolves with the new version once committed; rejects, having kept nothing, when
   * the store refused it or could not say whether it was kept (the message says which).
   */
  commit(changes: OrganizationCommit): Promise<number>;
  /** Ends the transaction without writing anything. */
  close(): Promise<void>;
}

/** The transaction in which a key's first request creates its organization. */
export interface NewOrganizationSession {
  readonly server: ServerRow;
  /** Writes the new organization's rows and commits; resolves with its version. */
  commit(organizationId: string, changes: OrganizationCommit): Promise<number>;
  close(): Promise<void>;
}

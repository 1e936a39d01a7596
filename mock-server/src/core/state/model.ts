import type { Mode } from '../event-types.js';
import type { IdempotencyRecord } from '../idempotency.js';
import type { RandomPosition } from '../seeded-random.js';

export type { RandomPosition };

export const STATE_FORMAT = 'cardrail-mock-state';
export const STATE_VERSION = 1;

/**
 * The whole state of a mock as plain JSON (docs/standalone-server.md#the-state-model): every organization and mode
 * (tenant) with its records, the server-wide clock advance and the id generator's position. Everything else the
 * mock holds (indexes, spend aggregates, subscription lookups, scheduled expiries and webhook attempts) is derived
 * from these records when they are restored.
 */
export interface MockSnapshot {
  /** Always `cardrail-mock-state`: `restore` refuses any other value. */
  format: typeof STATE_FORMAT;
  /** The state model's version (1); `restore` refuses a snapshot of another version. */
  version: typeof STATE_VERSION;
  /** Clock advances made through the server-wide clock, inherited by tenants created later. */
  sharedOffsetMs: number;
  /** Where a seeded id generator stands (null for random ids). */
  random: RandomPosition | null;
  /** Every organization and mode, with its records. */
  tenants: TenantSnapshot[];
}

/** What the server keeps beside its tenants. */
export interface ServerState {
  /** Clock advances made through the server-wide clock (MockSnapshot.sharedOffsetMs). */
  sharedOffsetMs: number;
  /** Where a seeded id generator stands (null for random ids). */
  random: RandomPosition | null;
}

/** One organization in one mode. */
export interface TenantSnapshot extends TenantHeader {
  /** Records by collection name, each as [sequence number, record], in sequence order. */
  collections: Record<string, [number, unknown][]>;
  /** Idempotency keys with the answer they replay (those still within their 24 hours). */
  idempotency: IdempotencyRecord[];
}

/** What the saved state keeps of a tenant besides its records and idempotency keys. */
export interface TenantHeader {
  /** The organization (`org_...`). */
  organizationId: string;
  /** The mode of its keys this tenant holds the data of: `test` and `live` are separate tenants. */
  mode: Mode;
  /** What the tenant's test clock adds to the base clock. */
  clockOffsetMs: number;
  /** The last sequence number handed out (creation order across the tenant's collections, and list cursors). */
  seq: number;
}

/** A tenant's key in the lines: `org_...:test`. */
export function tenantKey(organizationId: string, mode: Mode): string {
  return `${organizationId}:${mode}`;
}

/**
 * The state as a sequence of changes, each a JSON array: what a durable store receives, one commit (the changes one
 * request made, or one piece of due work) at a time. Applying the lines of every commit in order gives the state (see
 * SnapshotBuilder). A `put` carries the whole record, so applying it twice changes nothing.
 */
export type StateLine =
  | ['server', ServerState]
  | ['tenant', string, TenantHeader]
  | ['put', string, string, number, unknown]
  /** A record deleted: tenant, collection, id, and the sequence number it had. */
  | ['delete', string, string, string, number]
  | ['idempotency', string, IdempotencyRecord]
  /** An idempotency key past its 24 hours: forgotten. */
  | ['forget', string, string]
  /**
   * When the tenant's earliest scheduled work (a webhook attempt, a time-to-live, an intent's expiry) falls due, in
   * its test clock's epoch milliseconds, or null when none is scheduled: a store that keeps tenants out of memory
   * wakes them on time with it. Derived: it is not part of a snapshot.
   */
  | ['due', string, number | null]
  | ['reset'];

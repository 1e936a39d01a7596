import type { Mode } from '../event-types.js';
import type { StoredResponse } from '../idempotency.js';
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
  /** Every organization and mode in memory, with its records. */
  tenants: TenantSnapshot[];
  /** Tenants the durable store keeps outside memory (idle ones); only in a store's own files. */
  evicted?: EvictedTenant[] | undefined;
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

/** An `Idempotency-Key` the tenant remembers, with the answer a retry of the same request replays. */
export interface IdempotencyRecord {
  /** The `Idempotency-Key` header's value. */
  key: string;
  /**
   * SHA-256 (hex) of the first request's variant, method, path and JSON body value: the key sent with another
   * request is refused (`idempotency_key_reused`).
   */
  fingerprint: string;
  /** When the key is forgotten, in epoch milliseconds of the tenant's test clock (24 hours after first use). */
  expiresAt: number;
  /** The first answer, replayed byte for byte. */
  response: StoredResponse;
}

/** A tenant the durable store keeps on disk until a request needs it again. */
export interface EvictedTenant {
  /** The organization (`org_...`). */
  organizationId: string;
  /** The mode of the keys whose data left memory (the other mode's tenant is kept separately). */
  mode: Mode;
  /** The store's name for where the tenant's lines are. */
  ref: string;
  /** SHA-256 digests of its API keys, so a request with one of them brings the tenant back. */
  keyDigests: string[];
  /** The server-wide advance when it left memory: later advances are added when it comes back. */
  sharedOffsetMs: number;
}

/** A tenant's key in the lines: `org_...:test`. */
export function tenantKey(organizationId: string, mode: Mode): string {
  return `${organizationId}:${mode}`;
}

/**
 * The state as a sequence of changes, each a JSON array: what a durable store writes, one commit (the changes one
 * request made, or one piece of due work) at a time, and what a compacted state file is made of. Applying the lines
 * of a file in order, then those of later commits, gives the state (see SnapshotBuilder). A `put` carries the
 * whole record, so applying it twice changes nothing.
 */
export type StateLine =
  | [
      'server',
      {
        /** Clock advances made through the server-wide clock (MockSnapshot.sharedOffsetMs). */
        sharedOffsetMs: number;
        /** Where a seeded id generator stands (null for random ids). */
        random: RandomPosition | null;
      },
    ]
  | ['tenant', string, TenantHeader]
  | ['put', string, string, number, unknown]
  | ['delete', string, string, string]
  | ['idempotency', string, IdempotencyRecord]
  | ['evicted', string, EvictedTenant]
  | ['restored', string, string]
  | ['reset'];

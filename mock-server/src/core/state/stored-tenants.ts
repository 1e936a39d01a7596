import type { ServerState, TenantSnapshot } from './model.js';

/** A tenant as a store keeps it: its saved state, and the server-wide clock advance it was saved at. */
export interface StoredTenant {
  /** Its records, idempotency keys and header, as `snapshot()` holds a tenant. */
  tenant: TenantSnapshot;
  /**
   * The server-wide advance (MockSnapshot.sharedOffsetMs) when its clock offset was saved: advances made since
   * apply to it when it comes back into memory.
   */
  sharedOffsetMs: number;
  /**
   * When its earliest scheduled work falls due, on its test clock, as last written (`due` lines); null when none was,
   * undefined when the store does not know (a state imported from a snapshot): the tenant's due time is then written
   * again once it is in memory.
   */
  dueAt: number | null | undefined;
}

/**
 * The part of a durable store that keeps every tenant (organization and mode), so that the mock holds in memory only
 * those in use: a tenant is read on its first request or when its scheduled work falls due, and may leave memory
 * again when idle (docs/standalone-server.md#organizations-load-on-demand). Every lookup is by key (O(log n) in
 * the store), never a scan of the state.
 */
export interface StoredTenants {
  /** The server-wide state as stored: the clock advance, and where a seeded id generator stands. */
  server(): ServerState;
  /** The tenant (`org_...:test`) an API key belongs to, by the SHA-256 digest (hex) of the key; undefined when none. */
  ownerOfKey(digest: string): string | undefined;
  /** A stored tenant, or undefined when the store has none of that key. */
  read(tenantKey: string): StoredTenant | undefined;
  /** The key of every stored tenant (for `snapshot()`). */
  keys(): Iterable<string>;
  /**
   * Tenants with work due once the server clock (the base clock plus the server-wide advance) reads `at`, earliest
   * first, leaving out those `skip` names (the ones in memory), at most `limit`.
   */
  dueBy(at: number, skip: (tenantKey: string) => boolean, limit: number): string[];
  /** When the earliest work of a tenant not skipped falls due, on the server clock; undefined when none is scheduled. */
  nextDue(skip: (tenantKey: string) => boolean): number | undefined;
}

import type { TenantSnapshot } from './model.js';

/**
 * A tenant snapshot in one canonical order (collections by name, records by sequence number, idempotency keys by
 * key), so that two snapshots of the same state compare equal as JSON whatever order they were read in.
 */
export function normalizedTenant(tenant: TenantSnapshot): TenantSnapshot {
  const { collections, idempotency, ...header } = tenant;
  return {
    organizationId: header.organizationId,
    mode: header.mode,
    clockOffsetMs: header.clockOffsetMs,
    seq: header.seq,
    collections: Object.fromEntries(
      Object.keys(collections)
        .filter((name) => (collections[name]?.length ?? 0) > 0)
        .sort()
        .map((name) => [name, [...(collections[name] ?? [])].sort((a, b) => a[0] - b[0])]),
    ),
    idempotency: [...idempotency].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
  };
}

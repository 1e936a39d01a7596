import { type MockSnapshot, type StateLine, type TenantSnapshot, tenantKey } from './model.js';

/** A saved tenant as state lines: its header, its records in sequence order, its idempotency keys. */
export function* savedTenantLines(saved: TenantSnapshot): Generator<StateLine> {
  const { collections, idempotency, ...header } = saved;
  const key = tenantKey(saved.organizationId, saved.mode);
  yield ['tenant', key, header];
  for (const [name, entries] of Object.entries(collections)) {
    for (const [seq, record] of entries) yield ['put', key, name, seq, record];
  }
  for (const record of idempotency) yield ['idempotency', key, record];
}

/** A whole snapshot as the lines of one commit that replaces a store's state with it. */
export function* snapshotLines(snapshot: MockSnapshot): Generator<StateLine> {
  yield ['reset'];
  yield ['server', { sharedOffsetMs: snapshot.sharedOffsetMs, random: snapshot.random }];
  for (const tenant of snapshot.tenants) yield* savedTenantLines(tenant);
}

import type { Directory } from '../directory.js';
import type { Mode } from '../event-types.js';
import type { Tenant } from '../tenant.js';
import type { TenantUpdate } from './shared-gate.js';
import type { OrganizationRows } from './shared-store.js';

/** The modes of an organization: a tenant each. */
const MODES: readonly Mode[] = ['test', 'live'];

/** The tenants of an organization in memory. */
export function tenantsOf(directory: Directory, organizationId: string): Tenant[] {
  const found: Tenant[] = [];
  for (const mode of MODES) {
    const key = `${organizationId}:${mode}`;
    const tenant = directory.has(key) ? directory.load(key) : undefined;
    if (tenant) found.push(tenant);
  }
  return found;
}

/**
 * Brings an organization's copy in memory up to date with rows read under its lock (a shared store,
 * docs/standalone-server.md#several-instances-on-one-database): each tenant whose rows changed keeps its object and
 * takes the new records (Tenant.adopt), a tenant first stored by another process is made, and, when `whole`, a tenant
 * the store does not hold leaves memory. The caller runs it without recording changes. Returns the tenants changed.
 */
export function refreshCopy(directory: Directory, organizationId: string, rows: OrganizationRows, whole: boolean): Tenant[] {
  const updates = new Map<string, Omit<TenantUpdate, 'header'> & { header?: TenantUpdate['header'] }>();
  const update = (key: string) => {
    let found = updates.get(key);
    if (!found) {
      found = { whole, puts: [], deletes: [], idempotency: [], forgotten: [] };
      updates.set(key, found);
    }
    return found;
  };
  for (const row of rows.tenants) update(row.key).header = row.header;
  for (const row of rows.records) update(row.tenant).puts.push([row.collection, row.seq, row.record]);
  for (const row of rows.idempotency) update(row.tenant).idempotency.push(row.record);
  for (const row of rows.gone) {
    if (row.collection === undefined) update(row.tenant).forgotten.push(row.id);
    else update(row.tenant).deletes.push([row.collection, row.id]);
  }
  if (whole) for (const tenant of tenantsOf(directory, organizationId)) if (!updates.has(tenant.key)) directory.drop(tenant);
  const changed: Tenant[] = [];
  for (const [key, found] of updates) {
    const mode = key.slice(key.lastIndexOf(':') + 1) as Mode;
    const tenant = directory.tenant(organizationId, mode);
    tenant.adopt({ ...found, header: found.header ?? tenant.header() });
    changed.push(tenant);
  }
  for (const tenant of changed) directory.refreshed(tenant);
  return changed;
}

import type { IdempotencyRecord } from '../../core/idempotency.js';
import type { TenantHeader } from '../../core/state/model.js';
import type { OrganizationRows } from '../../core/state/shared-store.js';
import { checksum } from './checksum.js';
import { StateDatabaseError } from './errors.js';

/** The rows of an organization as the queries of a session read them. */
export interface RawRows {
  tenants: { key: string; header: string; shared_offset_ms: number; due_known?: boolean; records: number; idempotency: number }[];
  records: { tenant: string; seq: number; kind: string; id: string; body: string; crc: number }[];
  idempotency: { tenant: string; key: string; body: string; crc: number }[];
  gone: { tenant: string; what: string; kind: string | null; rid: string }[];
}

/**
 * Rows as a copy takes them, each checked: a text that does not match its CRC-32 (changed behind the mock's back) or,
 * when the organization is read whole, fewer or more rows than its tenants' counts say, is damage, named with the
 * organization and the row (docs/standalone-server.md#postgresql): the request that met it is answered 503 and nothing
 * is loaded from it.
 */
export function checkedRows(raw: RawRows, whole: boolean, database: string): OrganizationRows {
  const damage = (problem: string) =>
    new StateDatabaseError(
      database,
      'damage',
      `${database}: ${problem}. \`cardrail-mock state check ${database}\` lists everything it finds; \`cardrail-mock state export ${database} --force\` keeps what can be read`,
    );
  const rows: OrganizationRows = { tenants: [], records: [], idempotency: [], gone: [] };
  for (const row of raw.tenants) {
    let header: TenantHeader;
    try {
      header = JSON.parse(row.header) as TenantHeader;
    } catch {
      throw damage(`the header of organization ${row.key} is not JSON`);
    }
    rows.tenants.push({ key: row.key, header, sharedOffsetMs: Number(row.shared_offset_ms), dueKnown: row.due_known !== false });
  }
  const counts = new Map<string, { records: number; idempotency: number }>();
  const count = (tenant: string) => {
    let found = counts.get(tenant);
    if (!found) {
      found = { records: 0, idempotency: 0 };
      counts.set(tenant, found);
    }
    return found;
  };
  for (const row of raw.records) {
    if (checksum(row.body) !== Number(row.crc)) {
      throw damage(
        `the ${row.kind} record ${row.id} of organization ${row.tenant} does not match its checksum (its text was changed)`,
      );
    }
    rows.records.push({
      tenant: row.tenant,
      collection: row.kind,
      seq: Number(row.seq),
      record: JSON.parse(row.body) as { id: string },
    });
    count(row.tenant).records++;
  }
  for (const row of raw.idempotency) {
    if (checksum(row.body) !== Number(row.crc)) {
      throw damage(
        `the idempotency key ${row.key} of organization ${row.tenant} does not match its checksum (its text was changed)`,
      );
    }
    rows.idempotency.push({ tenant: row.tenant, record: JSON.parse(row.body) as IdempotencyRecord });
    count(row.tenant).idempotency++;
  }
  for (const row of raw.gone) {
    rows.gone.push({ tenant: row.tenant, collection: row.what === 'r' ? (row.kind ?? undefined) : undefined, id: row.rid });
  }
  if (whole) {
    for (const row of raw.tenants) {
      const found = counts.get(row.key) ?? { records: 0, idempotency: 0 };
      if (found.records !== Number(row.records)) {
        throw damage(`organization ${row.key} has ${found.records} records where ${row.records} were written`);
      }
      if (found.idempotency !== Number(row.idempotency)) {
        throw damage(`organization ${row.key} has ${found.idempotency} idempotency keys where ${row.idempotency} were written`);
      }
    }
  }
  return rows;
}

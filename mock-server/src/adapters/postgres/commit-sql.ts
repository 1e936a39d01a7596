import { apiKeys } from '../../core/directory.js';
import type { OrganizationCommit } from '../../core/state/shared-store.js';
import type { TenantHeader } from '../../core/state/model.js';
import { checksum } from './checksum.js';

/**
 * One commit of an organization as one statement (writable CTEs over arrays): records and idempotency keys upserted
 * with the new version, deletions kept as tombstones (what other processes' copies read since their version), keys
 * filed by digest, and each changed tenant's row with its header, due time and row counts (inserted minus deleted, as
 * the statement itself counts them). One Parse and Bind whatever the commit's size.
 */
export const COMMIT_ROWS = `
WITH rp AS (
  INSERT INTO records AS r (tenant, seq, kind, id, body, crc, org, version)
  SELECT t, s, k, i, b, c, $1, $2 FROM unnest($3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::bigint[]) AS u (t, s, k, i, b, c)
  ON CONFLICT (tenant, seq) DO UPDATE SET kind = excluded.kind, id = excluded.id, body = excluded.body, crc = excluded.crc,
    version = excluded.version
  RETURNING r.tenant, (r.xmax = 0) AS inserted
), rd AS (
  DELETE FROM records r USING unnest($9::text[], $10::bigint[]) AS d (t, s) WHERE r.tenant = d.t AND r.seq = d.s
  RETURNING r.tenant
), rt AS (
  INSERT INTO tombstones (tenant, what, ref, kind, rid, org, version)
  SELECT t, 'r', s::text, k, i, $1, $2 FROM unnest($9::text[], $10::bigint[], $11::text[], $12::text[]) AS d (t, s, k, i)
  ON CONFLICT (tenant, what, ref) DO UPDATE SET kind = excluded.kind, rid = excluded.rid, version = excluded.version, at = now()
), ip AS (
  INSERT INTO idempotency AS x (tenant, key, body, crc, org, version)
  SELECT t, k, b, c, $1, $2 FROM unnest($13::text[], $14::text[], $15::text[], $16::bigint[]) AS u (t, k, b, c)
  ON CONFLICT (tenant, key) DO UPDATE SET body = excluded.body, crc = excluded.crc, version = excluded.version
  RETURNING x.tenant, (x.xmax = 0) AS inserted
), xd AS (
  DELETE FROM idempotency x USING unnest($17::text[], $18::text[]) AS d (t, k) WHERE x.tenant = d.t AND x.key = d.k
  RETURNING x.tenant
), xt AS (
  INSERT INTO tombstones (tenant, what, ref, kind, rid, org, version)
  SELECT t, 'i', k, NULL, k, $1, $2 FROM unnest($17::text[], $18::text[]) AS d (t, k)
  ON CONFLICT (tenant, what, ref) DO UPDATE SET version = excluded.version, at = now()
), kp AS (
  INSERT INTO keys (digest, tenant, id) SELECT d, t, i FROM unnest($19::text[], $20::text[], $21::text[]) AS u (d, t, i)
  ON CONFLICT (digest) DO UPDATE SET tenant = excluded.tenant, id = excluded.id
), kd AS (
  DELETE FROM keys k USING unnest($22::text[], $23::text[]) AS d (t, i) WHERE k.tenant = d.t AND k.id = d.i
), counts AS (
  SELECT tenant, sum(dr)::int AS dr, sum(di)::int AS di FROM (
    SELECT tenant, 1 AS dr, 0 AS di FROM rp WHERE inserted
    UNION ALL SELECT tenant, -1, 0 FROM rd
    UNION ALL SELECT tenant, 0, 1 FROM ip WHERE inserted
    UNION ALL SELECT tenant, 0, -1 FROM xd
  ) AS c GROUP BY tenant
)
INSERT INTO tenants AS t (key, org, header, shared_offset_ms, due_known, due_at, wake_at, records, idempotency, version)
SELECT h.k, $1, h.header, h.shared, h.known, h.due, h.wake, coalesce(c.dr, 0), coalesce(c.di, 0), $2
FROM unnest($24::text[], $25::text[], $26::bigint[], $27::boolean[], $28::bigint[], $29::bigint[])
  AS h (k, header, shared, known, due, wake)
LEFT JOIN counts c ON c.tenant = h.k
ON CONFLICT (key) DO UPDATE SET header = excluded.header, shared_offset_ms = excluded.shared_offset_ms,
  due_known = excluded.due_known OR t.due_known,
  due_at = CASE WHEN excluded.due_known THEN excluded.due_at ELSE t.due_at END,
  wake_at = CASE WHEN excluded.due_known THEN excluded.wake_at ELSE t.wake_at END,
  records = t.records + excluded.records, idempotency = t.idempotency + excluded.idempotency, version = excluded.version`;

interface TenantRow {
  header: TenantHeader | undefined;
  due: number | null | undefined;
}

/**
 * The parameters of COMMIT_ROWS for one commit of `organizationId` at `version`. A tenant's due time is kept on the
 * server clock too (`wake_at`: its test-clock due time, minus its clock's offset, plus the server-wide advance that
 * offset includes), so that due work is found without reading any organization.
 */
export function commitParameters(organizationId: string, version: number, changes: OrganizationCommit): unknown[] {
  const put = {
    t: [] as string[],
    s: [] as number[],
    k: [] as string[],
    i: [] as string[],
    b: [] as string[],
    c: [] as number[],
  };
  const gone = { t: [] as string[], s: [] as number[], k: [] as string[], i: [] as string[] };
  const answers = { t: [] as string[], k: [] as string[], b: [] as string[], c: [] as number[] };
  const forgotten = { t: [] as string[], k: [] as string[] };
  const keys = { d: [] as string[], t: [] as string[], i: [] as string[] };
  const keysGone = { t: [] as string[], i: [] as string[] };
  const tenants = new Map<string, TenantRow>();
  const row = (key: string) => {
    let found = tenants.get(key);
    if (!found) {
      found = { header: undefined, due: undefined };
      tenants.set(key, found);
    }
    return found;
  };
  for (const line of changes.lines) {
    switch (line[0]) {
      case 'tenant':
        row(line[1]).header = line[2];
        break;
      case 'put': {
        const [, tenant, kind, seq, record] = line;
        const body = JSON.stringify(record);
        const id = (record as { id: string }).id;
        put.t.push(tenant);
        put.s.push(seq);
        put.k.push(kind);
        put.i.push(id);
        put.b.push(body);
        put.c.push(checksum(body));
        if (kind === apiKeys.name) {
          keys.d.push((record as { digest: string }).digest);
          keys.t.push(tenant);
          keys.i.push(id);
        }
        break;
      }
      case 'delete': {
        const [, tenant, kind, id, seq] = line;
        gone.t.push(tenant);
        gone.s.push(seq);
        gone.k.push(kind);
        gone.i.push(id);
        if (kind === apiKeys.name) {
          keysGone.t.push(tenant);
          keysGone.i.push(id);
        }
        break;
      }
      case 'idempotency': {
        const body = JSON.stringify(line[2]);
        answers.t.push(line[1]);
        answers.k.push(line[2].key);
        answers.b.push(body);
        answers.c.push(checksum(body));
        break;
      }
      case 'forget':
        forgotten.t.push(line[1]);
        forgotten.k.push(line[2]);
        break;
      case 'due':
        row(line[1]).due = line[2];
        break;
      default:
        // Server-wide lines and resets are not an organization's: the store writes them itself.
        break;
    }
  }
  const h = {
    k: [] as string[],
    header: [] as string[],
    shared: [] as number[],
    known: [] as boolean[],
    due: [] as (number | null)[],
    wake: [] as (number | null)[],
  };
  for (const [key, found] of tenants) {
    if (!found.header) continue;
    const shared = changes.sharedOffsets.get(key) ?? 0;
    h.k.push(key);
    h.header.push(JSON.stringify(found.header));
    h.shared.push(shared);
    h.known.push(found.due !== undefined);
    h.due.push(found.due ?? null);
    // Not known (a state imported from a snapshot): woken at once, and written once the tenant is in memory.
    h.wake.push(found.due === undefined ? 0 : found.due === null ? null : found.due - found.header.clockOffsetMs + shared);
  }
  return [
    organizationId,
    version,
    put.t,
    put.s,
    put.k,
    put.i,
    put.b,
    put.c,
    gone.t,
    gone.s,
    gone.k,
    gone.i,
    answers.t,
    answers.k,
    answers.b,
    answers.c,
    forgotten.t,
    forgotten.k,
    keys.d,
    keys.t,
    keys.i,
    keysGone.t,
    keysGone.i,
    h.k,
    h.header,
    h.shared,
    h.known,
    h.due,
    h.wake,
  ];
}

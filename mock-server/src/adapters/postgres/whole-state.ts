import { normalizedTenant } from '../../core/state/compare.js';
import { savedTenantLines } from '../../core/state/lines.js';
import {
  type MockSnapshot,
  STATE_FORMAT,
  STATE_VERSION,
  type TenantHeader,
  type TenantSnapshot,
} from '../../core/state/model.js';
import type { IdempotencyRecord } from '../../core/idempotency.js';
import { COMMIT_ROWS, commitParameters } from './commit-sql.js';
import { readConsistently } from './consistent-read.js';
import { type Pool, pipelined } from './driver.js';
import { StateDatabaseError } from './errors.js';
import { checkedRows } from './rows.js';
import type { SessionContext } from './session.js';

const EVERY_TABLE = 'records, idempotency, tombstones, keys, claims, tenants, organizations';

/** Forgets everything in one transaction, alone (every batch holds the server lock shared): a new generation. */
export async function resetAll(pool: Pool, lock: string): Promise<void> {
  const client = await pool.connect();
  try {
    const results = await pipelined([
      client.query('BEGIN'),
      client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [lock]),
      client.query(`TRUNCATE ${EVERY_TABLE}`),
      client.query('UPDATE server SET generation = generation + 1, shared_offset_ms = 0'),
      client.query('COMMIT'),
    ]);
    if (results[4]?.command !== 'COMMIT') throw new Error('the database rolled the reset back');
    client.release();
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/** The rows a snapshot is written as: each organization's commit parameters, made before the database is asked. */
export interface SnapshotWrites {
  snapshot: MockSnapshot;
  organizations: { id: string; parameters: unknown[] }[];
}

/**
 * The rows of a snapshot, made from its records alone: a snapshot whose records cannot make rows is refused here,
 * before any round trip, so that what fails later is the database's (replaceWith).
 */
export function snapshotWrites(snapshot: MockSnapshot): SnapshotWrites {
  const byOrganization = new Map<string, TenantSnapshot[]>();
  for (const tenant of snapshot.tenants) {
    const list = byOrganization.get(tenant.organizationId) ?? [];
    list.push(tenant);
    byOrganization.set(tenant.organizationId, list);
  }
  const organizations = [...byOrganization].map(([id, tenants]) => {
    const lines = tenants.flatMap((tenant) => [...savedTenantLines(tenant)]);
    const sharedOffsets = new Map(tenants.map((tenant) => [`${tenant.organizationId}:${tenant.mode}`, snapshot.sharedOffsetMs]));
    const changes = { lines, sharedOffsets, claimsTaken: [], claimsDropped: [] };
    return { id, parameters: commitParameters(id, 1, changes) };
  });
  return { snapshot, organizations };
}

/**
 * Replaces everything with a snapshot's rows in one transaction (alone, as a reset), then reads it back and compares
 * it, organization by organization: a difference is refused (`damage`) and nothing is kept. Each tenant's next due time
 * is written once it is first used (woken at once: `wake_at` 0).
 */
export async function replaceWith(pool: Pool, context: SessionContext, writes: SnapshotWrites): Promise<void> {
  const { snapshot } = writes;
  const client = await pool.connect();
  try {
    const statements = [
      client.query('BEGIN'),
      client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [context.serverLock]),
      client.query(`TRUNCATE ${EVERY_TABLE}`),
      client.query('UPDATE server SET generation = generation + 1, shared_offset_ms = $1', [snapshot.sharedOffsetMs]),
    ];
    for (const { id, parameters } of writes.organizations) {
      statements.push(client.query({ name: 'commit_rows', text: COMMIT_ROWS, values: parameters }));
      statements.push(client.query('INSERT INTO organizations (id, version) VALUES ($1, 1)', [id]));
    }
    const results = await pipelined(statements);
    const stored = await readRows(client, context.database);
    const expected = new Map(snapshot.tenants.map((tenant) => [`${tenant.organizationId}:${tenant.mode}`, tenant]));
    for (const tenant of stored.tenants) {
      const key = `${tenant.organizationId}:${tenant.mode}`;
      const original = expected.get(key);
      expected.delete(key);
      if (original === undefined || JSON.stringify(normalizedTenant(tenant)) !== JSON.stringify(normalizedTenant(original))) {
        throw new StateDatabaseError(
          context.database,
          'damage',
          `${context.database}: read organization ${key} back differently from what was imported`,
        );
      }
    }
    const [missing] = expected.keys();
    if (missing !== undefined) {
      throw new StateDatabaseError(
        context.database,
        'damage',
        `${context.database}: organization ${missing} was not stored by the import`,
      );
    }
    const committed = await client.query('COMMIT');
    if (committed.command !== 'COMMIT' || results.length === 0) throw new Error('the database rolled the import back');
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}

/**
 * The whole state as `snapshot()` JSON, read in one consistent snapshot of the database while instances serve
 * (consistent-read.ts): every tenant, its clock given the server-wide advances made since it was saved.
 */
export function readSnapshot(pool: Pool, context: Pick<SessionContext, 'database' | 'serverLock'>): Promise<MockSnapshot> {
  return readConsistently(pool, context.serverLock, (client) => readRows(client, context.database));
}

async function readRows(client: Pick<Pool, 'query'>, database: string): Promise<MockSnapshot> {
  const server = (await client.query('SELECT shared_offset_ms FROM server')).rows[0] as { shared_offset_ms: number } | undefined;
  const sharedOffsetMs = Number(server?.shared_offset_ms ?? 0);
  const tenantRows = (await client.query('SELECT key, header, shared_offset_ms, records, idempotency FROM tenants ORDER BY key'))
    .rows;
  const rows = checkedRows(
    {
      tenants: tenantRows,
      records: (await client.query('SELECT tenant, seq, kind, id, body, crc FROM records ORDER BY tenant, seq')).rows,
      idempotency: (await client.query('SELECT tenant, key, body, crc FROM idempotency ORDER BY tenant, key')).rows,
      gone: [],
    },
    true,
    database,
  );
  const tenants = new Map<string, TenantSnapshot>();
  for (const row of rows.tenants) {
    const header: TenantHeader = {
      ...row.header,
      clockOffsetMs: row.header.clockOffsetMs + Math.max(0, sharedOffsetMs - row.sharedOffsetMs),
    };
    tenants.set(row.key, { ...header, collections: {}, idempotency: [] });
  }
  for (const row of rows.records) {
    const tenant = tenants.get(row.tenant);
    if (!tenant) continue;
    const entries = tenant.collections[row.collection] ?? [];
    tenant.collections[row.collection] = entries;
    entries.push([row.seq, row.record]);
  }
  for (const row of rows.idempotency) tenants.get(row.tenant)?.idempotency.push(row.record as IdempotencyRecord);
  for (const tenant of tenants.values()) tenant.idempotency.sort((a, b) => a.expiresAt - b.expiresAt);
  return { format: STATE_FORMAT, version: STATE_VERSION, sharedOffsetMs, random: null, tenants: [...tenants.values()] };
}

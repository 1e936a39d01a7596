import { checksum } from './checksum.js';
import { readConsistently } from './consistent-read.js';
import type { Pool, PoolClient } from './driver.js';

/** What `state check` found in a PostgreSQL state: its size and every problem, each naming the row. */
export interface DatabaseInspection {
  /** `organizations` counts each organization's modes apart, as a state directory's check does. */
  facts: { organizations: number; records: number; idempotencyKeys: number; bytes: number };
  problems: string[];
}

/** Rows read per query: a state of any size is checked in bounded memory. */
const PAGE = 5_000;
/** Problems listed at most (the count of the rest is given). */
const LISTED = 100;

/**
 * Reads every row of the state in one consistent snapshot while instances serve (consistent-read.ts): each record's
 * and idempotency key's text against its CRC-32, each tenant's counts against its rows, headers that are not JSON,
 * and rows of no tenant (records, idempotency keys, API keys).
 */
export function inspectDatabase(pool: Pool, serverLock: string): Promise<DatabaseInspection> {
  return readConsistently(pool, serverLock, (client) => inspectRows(client));
}

async function inspectRows(client: Pick<PoolClient, 'query'>): Promise<DatabaseInspection> {
  const problems: string[] = [];
  let more = 0;
  const problem = (text: string) => (problems.length < LISTED ? problems.push(text) : more++);
  const tenants = (await client.query('SELECT key, header, records, idempotency FROM tenants ORDER BY key')).rows as {
    key: string;
    header: string;
    records: number;
    idempotency: number;
  }[];
  const counted = new Map(tenants.map((tenant) => [tenant.key, { records: 0, idempotency: 0 }]));
  for (const tenant of tenants) {
    try {
      JSON.parse(tenant.header);
    } catch {
      problem(`the header of organization ${tenant.key} is not JSON`);
    }
  }
  const records = await eachRow(client, 'records', 'seq', 'kind, id', (row) => {
    const count = counted.get(row.tenant);
    if (count === undefined) return problem(`the ${row.kind} record ${row.id} belongs to no organization (${row.tenant})`);
    count.records++;
    if (checksum(row.body) !== Number(row.crc)) {
      problem(
        `the ${row.kind} record ${row.id} of organization ${row.tenant} does not match its checksum (its text was changed)`,
      );
    }
  });
  const keys = await eachRow(client, 'idempotency', 'key', 'key AS id', (row) => {
    const count = counted.get(row.tenant);
    if (count === undefined) return problem(`the idempotency key ${row.id} belongs to no organization (${row.tenant})`);
    count.idempotency++;
    if (checksum(row.body) !== Number(row.crc)) {
      problem(`the idempotency key ${row.id} of organization ${row.tenant} does not match its checksum (its text was changed)`);
    }
  });
  for (const tenant of tenants) {
    const found = counted.get(tenant.key) ?? { records: 0, idempotency: 0 };
    if (found.records !== Number(tenant.records)) {
      problem(`organization ${tenant.key} has ${found.records} records where ${tenant.records} were written`);
    }
    if (found.idempotency !== Number(tenant.idempotency)) {
      problem(`organization ${tenant.key} has ${found.idempotency} idempotency keys where ${tenant.idempotency} were written`);
    }
  }
  const orphanKeys = (
    await client.query('SELECT count(*)::int AS n FROM keys k WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.key = k.tenant)')
  ).rows[0] as { n: number };
  if (orphanKeys.n > 0) problem(`${orphanKeys.n} API keys belong to no organization`);
  const size = (
    await client.query(
      'SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = $1',
      ['r'],
    )
  ).rows[0] as { bytes: number };
  if (more > 0) problems.push(`and ${more} more problems`);
  return {
    facts: { organizations: tenants.length, records, idempotencyKeys: keys, bytes: Number(size.bytes) },
    problems,
  };
}

type Row = { tenant: string; body: string; crc: number; id: string; kind?: string };

/** Every row of a table, a page at a time in primary-key order; returns how many there were. */
async function eachRow(
  client: Pick<PoolClient, 'query'>,
  table: 'records' | 'idempotency',
  second: 'seq' | 'key',
  columns: string,
  visit: (row: Row) => unknown,
): Promise<number> {
  let after: unknown[] = [];
  let total = 0;
  for (;;) {
    const where = after.length === 0 ? '' : `WHERE (tenant, ${second}) > ($1, $2)`;
    const rows = (
      await client.query(
        `SELECT tenant, ${second} AS position, ${columns}, body, crc FROM ${table} ${where} ORDER BY tenant, ${second} LIMIT ${PAGE}`,
        after,
      )
    ).rows as unknown as (Row & { position: unknown })[];
    for (const row of rows) visit(row);
    total += rows.length;
    const last = rows.at(-1);
    if (rows.length < PAGE || last === undefined) return total;
    after = [last.tenant, last.position];
  }
}

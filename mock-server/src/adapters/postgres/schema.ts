import { STATE_FORMAT } from '../../core/state/model.js';
import type { PoolClient } from './driver.js';
import { StateDatabaseError } from './errors.js';
import type { DatabaseAddress } from './url.js';

/**
 * The schema, by version: each entry takes a schema from the version before it to its own, in the start's transaction.
 * Tables (docs/standalone-server.md#postgresql):
 * - `meta`: the format's name, the schema version, the release that created and last wrote it, the clock instances use.
 * - `server`: the generation (a reset or restore: every process drops its copies) and the server-wide clock advance.
 * - `organizations`: each organization's version (the unit of order and of every process's copy), the lowest version
 *   a copy may be brought up to date from (`tomb_floor`: older tombstones are pruned) and the last commit's token.
 * - `tenants`, `records`, `idempotency`, `keys`: as in the SQLite store, each row with the organization and the version
 *   of the commit that last wrote it (what a copy reads since its own), records and answers with a CRC-32.
 * - `tombstones`: records and idempotency keys deleted, with the version that deleted them.
 * - `claims`: scheduled work taken by one process (a webhook attempt), until a time of the database's clock.
 * - `instances`: the processes serving it, with a heartbeat (`state import` refuses to run beside one).
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (name text PRIMARY KEY, value text NOT NULL);
  CREATE TABLE server (one boolean PRIMARY KEY DEFAULT true CHECK (one), generation bigint NOT NULL,
    shared_offset_ms bigint NOT NULL);
  CREATE TABLE organizations (id text PRIMARY KEY, version bigint NOT NULL, tomb_floor bigint NOT NULL DEFAULT 0,
    last_commit text);
  CREATE TABLE tenants (key text PRIMARY KEY, org text NOT NULL, header text NOT NULL, shared_offset_ms bigint NOT NULL,
    due_known boolean NOT NULL, due_at bigint, wake_at bigint, records integer NOT NULL, idempotency integer NOT NULL,
    version bigint NOT NULL);
  CREATE INDEX tenants_by_org ON tenants (org, version);
  CREATE INDEX tenants_by_wake ON tenants (wake_at) WHERE wake_at IS NOT NULL;
  CREATE TABLE records (tenant text NOT NULL, seq bigint NOT NULL, kind text NOT NULL, id text NOT NULL,
    body text NOT NULL, crc bigint NOT NULL, org text NOT NULL, version bigint NOT NULL, PRIMARY KEY (tenant, seq));
  CREATE INDEX records_by_version ON records (org, version);
  CREATE TABLE idempotency (tenant text NOT NULL, key text NOT NULL, body text NOT NULL, crc bigint NOT NULL,
    org text NOT NULL, version bigint NOT NULL, PRIMARY KEY (tenant, key));
  CREATE INDEX idempotency_by_version ON idempotency (org, version);
  CREATE TABLE tombstones (tenant text NOT NULL, what text NOT NULL, ref text NOT NULL, kind text, rid text NOT NULL,
    org text NOT NULL, version bigint NOT NULL, at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (tenant, what, ref));
  CREATE INDEX tombstones_by_version ON tombstones (org, version);
  CREATE INDEX tombstones_by_age ON tombstones (at);
  CREATE TABLE keys (digest text PRIMARY KEY, tenant text NOT NULL, id text NOT NULL);
  CREATE INDEX keys_by_owner ON keys (tenant, id);
  CREATE TABLE claims (org text NOT NULL, work text NOT NULL, owner text NOT NULL, token text NOT NULL,
    until timestamptz NOT NULL, PRIMARY KEY (org, work));
  CREATE INDEX claims_by_until ON claims (until);
  CREATE TABLE instances (id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL, release text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(), seen_at timestamptz NOT NULL DEFAULT now());
  INSERT INTO server (one, generation, shared_offset_ms) VALUES (true, 1, 0);
  `,
];

const SCHEMA_VERSION = MIGRATIONS.length;

/** The tables a role must be able to read and write. */
const TABLES = [
  'meta',
  'server',
  'organizations',
  'tenants',
  'records',
  'idempotency',
  'tombstones',
  'keys',
  'claims',
  'instances',
];

/** The advisory lock every batch takes shared and a reset, restore or schema change takes alone. */
export function serverLock(address: DatabaseAddress): string {
  return `cardrail-mock:${address.schema}`;
}

export interface OpenOptions {
  /** This release (`@cardrail/mock-server 0.3.0`), written into `meta`. */
  release: string;
  /**
   * The clock this process runs: `running`, or `frozen@<ISO instant>`; instances on one state must agree. Undefined
   * for the state commands (an import sets no clock: the first instance to serve it does).
   */
  clock?: string | undefined;
  /** Only look (state check, export): nothing is created or migrated. */
  readOnly?: boolean;
}

/**
 * Everything a start checks before it serves, in one transaction under the schema's lock (two instances starting at
 * once on an empty database: one creates the schema, the other waits and finds it): a server that can write, a
 * database that holds no other program's tables (unless a schema of the mock's own is named), a schema of this format
 * no newer than this release, the rights the role needs (named, with the GRANT to run), and the same clock as every
 * instance before. An empty database gets the schema. Returns whether the schema was created now.
 */
export async function openSchema(client: PoolClient, address: DatabaseAddress, options: OpenOptions): Promise<boolean> {
  const refuse = (reason: StateDatabaseError['reason'], text: string) =>
    new StateDatabaseError(address.shown, reason, `${address.shown}: ${text}`);
  const { schema } = address;
  const facts = (
    await client.query(
      `SELECT current_setting('server_version_num')::int AS version, pg_is_in_recovery() AS standby,
         current_setting('transaction_read_only') AS read_only, current_user AS role,
         EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND c.relname = 'meta') AS ours, EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS present,
         has_database_privilege(current_database(), 'CREATE') AS can_create`,
      [schema],
    )
  ).rows[0] as {
    version: number;
    standby: boolean;
    read_only: string;
    role: string;
    ours: boolean;
    present: boolean;
    can_create: boolean;
  };
  if (facts.version < 140000) throw refuse('server', `PostgreSQL ${facts.version} is too old: the mock needs 14 or newer`);
  if (!facts.ours) {
    const others = await foreignTables(client, schema, facts.present);
    if (others.length > 0) {
      const named = others.slice(0, 3).join(', ') + (others.length > 3 ? ` and ${others.length - 3} more` : '');
      throw refuse(
        'foreign',
        facts.present
          ? `the schema ${schema} holds tables of another program (${named}), not a cardrail-mock state. Name another schema (?schema=cardrail_mock2) or use a database of its own`
          : `holds tables of another program (${named}). Give the mock a database of its own (CREATE DATABASE cardrail), or name a schema of its own in it (?schema=cardrail_mock)`,
      );
    }
    if (options.readOnly) throw refuse('foreign', `holds no cardrail-mock state (no schema ${schema})`);
    if (facts.standby || facts.read_only === 'on')
      throw refuse('server', 'is read-only (a standby, or a read-only role): the mock writes every commit');
    if (!facts.present && !facts.can_create) {
      throw refuse(
        'rights',
        `role "${facts.role}" may not create the schema ${schema}: GRANT CREATE ON DATABASE ${address.database} TO "${facts.role}" (or create the schema for it: CREATE SCHEMA ${schema} AUTHORIZATION "${facts.role}")`,
      );
    }
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    if (!(await hasPrivilege(client, schema, 'CREATE'))) {
      throw refuse(
        'rights',
        `role "${facts.role}" may not create tables in the schema ${schema}: GRANT CREATE ON SCHEMA ${schema} TO "${facts.role}"`,
      );
    }
    await client.query(`SET LOCAL search_path = ${schema}`);
    await client.query(MIGRATIONS[0] as string);
    const meta = [
      ['format', STATE_FORMAT],
      ['schema_version', String(SCHEMA_VERSION)],
      ['created_by', options.release],
      ['written_by', options.release],
      ...(options.clock === undefined ? [] : [['clock', options.clock]]),
    ];
    for (const [name, value] of meta) await client.query('INSERT INTO meta (name, value) VALUES ($1, $2)', [name, value]);
    return true;
  }
  await checkRights(client, schema, facts.role, refuse);
  const meta = new Map(
    (await client.query(`SELECT name, value FROM ${schema}.meta`)).rows.map((row: { name: string; value: string }) => [
      row.name,
      row.value,
    ]),
  );
  if (meta.get('format') !== STATE_FORMAT) {
    throw refuse(
      'foreign',
      `the schema ${schema} is not a cardrail-mock state (its meta table names the format ${meta.get('format') ?? 'none'})`,
    );
  }
  const version = Number(meta.get('schema_version'));
  if (version > SCHEMA_VERSION) {
    throw refuse(
      'newer',
      `was written by ${meta.get('written_by') ?? 'a newer release'} (schema version ${version}); this is ${options.release}, which reads up to ${SCHEMA_VERSION}: run a release at least as new`,
    );
  }
  if (!options.readOnly && facts.standby) throw refuse('server', 'is a read-only standby: the mock writes every commit');
  const clock = meta.get('clock');
  if (!options.readOnly && clock === undefined && options.clock !== undefined) {
    await client.query(`INSERT INTO ${schema}.meta (name, value) VALUES ('clock', $1)`, [options.clock]);
  }
  if (!options.readOnly && clock !== undefined && options.clock !== undefined && clock !== options.clock) {
    throw refuse(
      'clock',
      `is used by instances whose clock is ${clockWords(clock)}, and this one's is ${clockWords(options.clock)}: start every instance on one state with the same --frozen-clock (or none), or use another database or ?schema=`,
    );
  }
  return false;
}

function clockWords(clock: string): string {
  return clock.startsWith('frozen@') ? `frozen at ${clock.slice('frozen@'.length)}` : 'wall time';
}

/** Tables of the database (or of the schema, when it exists) that are not the mock's. */
async function foreignTables(client: PoolClient, schema: string, schemaPresent: boolean): Promise<string[]> {
  const rows = await client.query(
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
       AND (NOT $2 OR n.nspname = $1) ORDER BY 1 LIMIT 50`,
    [schema, schemaPresent],
  );
  return rows.rows.map((row: { name: string }) => row.name);
}

async function hasPrivilege(client: PoolClient, schema: string, right: 'USAGE' | 'CREATE'): Promise<boolean> {
  const row = (await client.query('SELECT has_schema_privilege($1, $2) AS ok', [schema, right])).rows[0] as { ok: boolean };
  return row.ok;
}

/** Every table readable and writable by the role, else refused naming the first missing right and the GRANT. */
async function checkRights(
  client: PoolClient,
  schema: string,
  role: string,
  refuse: (reason: StateDatabaseError['reason'], text: string) => Error,
): Promise<void> {
  const grant = `GRANT USAGE ON SCHEMA ${schema} TO "${role}"; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO "${role}"`;
  if (!(await hasPrivilege(client, schema, 'USAGE'))) {
    throw refuse('rights', `role "${role}" may not use the schema ${schema} (USAGE): ${grant}, or use the role that created it`);
  }
  const rows = await client.query(
    // Each right asked apart: has_table_privilege with a list is true when any one of them is held.
    `SELECT t AS name, has_table_privilege($1 || '.' || t, 'SELECT') AND has_table_privilege($1 || '.' || t, 'INSERT')
         AND has_table_privilege($1 || '.' || t, 'UPDATE') AND has_table_privilege($1 || '.' || t, 'DELETE') AS ok,
       has_table_privilege($1 || '.' || t, 'SELECT') AS readable
     FROM unnest($2::text[]) AS t`,
    [schema, TABLES],
  );
  const missing = (rows.rows as { name: string; ok: boolean; readable: boolean }[]).find((row) => !row.ok);
  if (missing) {
    throw refuse(
      'rights',
      `role "${role}" may not ${missing.readable ? 'write' : 'read'} ${schema}.${missing.name} (SELECT, INSERT, UPDATE, DELETE needed): ${grant}, or use the role that created it`,
    );
  }
}

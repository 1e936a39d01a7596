import { randomUUID } from 'node:crypto';
import { StateUnavailable } from '../../core/errors.js';
import type {
  ClaimRow,
  NewOrganizationSession,
  OrganizationCommit,
  OrganizationRows,
  OrganizationSession,
  ServerRow,
} from '../../core/state/shared-store.js';
import { COMMIT_ROWS, commitParameters } from './commit-sql.js';
import { abandon, connectionLost, type Pool, type PoolClient, pipelined, type QueryResult } from './driver.js';
import { StateDatabaseError } from './errors.js';
import { checkedRows, type RawRows } from './rows.js';

/** What a session needs of its store. */
export interface SessionContext {
  pool: Pool;
  /** The database as messages name it. */
  database: string;
  /** The database as answers name it (`the database at host:port/db`): every failure while serving is a StateUnavailable of it. */
  where: string;
  /** The advisory lock's name every batch takes shared (schema.ts serverLock). */
  serverLock: string;
  instanceId: string;
}

const EMPTY: OrganizationRows = { tenants: [], records: [], idempotency: [], gone: [] };
/** How long a commit whose answer was lost (the connection dropped after COMMIT was sent) is looked for. */
const IN_DOUBT_WAIT_MS = 2_000;

/** A query of a pipelined transaction: named (prepared once per connection) when it takes parameters. */
function query(client: PoolClient, name: string | undefined, text: string, values?: unknown[]): Promise<QueryResult> {
  return client.query(name === undefined ? { text, values } : { name, text, values });
}

/**
 * The statements that read an organization's rows written after a version, under its lock (READ COMMITTED: each
 * statement's snapshot is taken after the lock is granted, so it sees the previous holder's commit).
 */
function readSince(client: PoolClient, org: string, since: number): Promise<QueryResult>[] {
  return [
    query(
      client,
      'tenants_since',
      'SELECT key, header, shared_offset_ms, due_known, records, idempotency FROM tenants WHERE org = $1 AND version > $2',
      [org, since],
    ),
    query(client, 'records_since', 'SELECT tenant, seq, kind, id, body, crc FROM records WHERE org = $1 AND version > $2', [
      org,
      since,
    ]),
    query(client, 'answers_since', 'SELECT tenant, key, body, crc FROM idempotency WHERE org = $1 AND version > $2', [
      org,
      since,
    ]),
    query(client, 'gone_since', 'SELECT tenant, what, kind, rid FROM tombstones WHERE org = $1 AND version > $2', [org, since]),
  ];
}

function rawRows(results: QueryResult[]): RawRows {
  const [tenants, records, idempotency, gone] = results as [QueryResult, QueryResult, QueryResult, QueryResult];
  return { tenants: tenants.rows, records: records.rows, idempotency: idempotency.rows, gone: gone.rows };
}

/**
 * Begins an organization's batch in one round trip: BEGIN, the server-wide lock (shared), the organization's row lock,
 * the server row, the rows since `since`, and the organization's claims. A copy older than the tombstones kept (or
 * none) is read whole.
 */
export async function openOrganization(
  context: SessionContext,
  org: string,
  copy: { version: number; generation: number | undefined },
): Promise<OrganizationSession> {
  const since = copy.version;
  const client = await connect(context);
  try {
    const results = await pipelined([
      query(client, undefined, 'BEGIN'),
      query(client, 'lock_server', 'SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [context.serverLock]),
      query(client, 'lock_org', 'SELECT version, tomb_floor FROM organizations WHERE id = $1 FOR UPDATE', [org]),
      query(client, 'server_row', 'SELECT generation, shared_offset_ms FROM server'),
      ...readSince(client, org, since),
      query(
        client,
        'claims_of',
        'SELECT work, owner, token, extract(epoch FROM until - clock_timestamp()) * 1000 AS remaining FROM claims WHERE org = $1',
        [org],
      ),
    ]);
    const locked = results[2]?.rows[0] as { version: number; tomb_floor: number } | undefined;
    const server = serverRow(results[3] as QueryResult);
    const claims = (results[8] as QueryResult).rows.map(
      (row: { work: string; owner: string; token: string; remaining: number }): ClaimRow => ({
        work: row.work,
        owner: row.owner,
        token: row.token,
        remainingMs: Number(row.remaining),
      }),
    );
    if (!locked) return new Session(context, client, org, 0, false, server, EMPTY, true, claims);
    let raw = rawRows(results.slice(4, 8));
    let whole = since === 0;
    if (
      !whole &&
      (since < Number(locked.tomb_floor) || copy.generation !== server.generation || since > Number(locked.version))
    ) {
      // Tombstones this copy would need were pruned, or the state was reset or restored since it was read: read whole.
      raw = rawRows(await pipelined(readSince(client, org, 0)));
      whole = true;
    }
    const rows = checkedRows(raw, whole, context.database);
    return new Session(context, client, org, Number(locked.version), true, server, rows, whole, claims);
  } catch (error) {
    await abandon(client, error);
    throw StateUnavailable.of(error, context.where);
  }
}

/**
 * Begins the transaction of a key no organization holds: under an advisory lock on its digest, so that a first request
 * with it reaching two processes at once makes one organization (the second waits, then finds the key).
 */
export async function openNewKey(
  context: SessionContext,
  digest: string,
): Promise<{ owner: string } | { session: NewOrganizationSession }> {
  const client = await connect(context);
  try {
    const results = await pipelined([
      query(client, undefined, 'BEGIN'),
      query(client, 'lock_server', 'SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [context.serverLock]),
      query(client, 'lock_key', 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`cardrail-mock:key:${digest}`]),
      query(client, 'owner_of_key', 'SELECT tenant FROM keys WHERE digest = $1', [digest]),
      query(client, 'server_row', 'SELECT generation, shared_offset_ms FROM server'),
    ]);
    const owner = (results[3]?.rows[0] as { tenant: string } | undefined)?.tenant;
    if (owner !== undefined) {
      await query(client, undefined, 'COMMIT');
      client.release();
      return { owner: owner.slice(0, owner.lastIndexOf(':')) };
    }
    const session = new Session(context, client, undefined, 0, true, serverRow(results[4] as QueryResult), EMPTY, true, []);
    return {
      session: {
        server: session.server,
        commit: (organizationId, changes) => session.commitAs(organizationId, changes),
        close: () => session.close(),
      },
    };
  } catch (error) {
    await abandon(client, error);
    throw StateUnavailable.of(error, context.where);
  }
}

/** A connection of the pool; refused (the database away, the pool's wait over) as a StateUnavailable. */
async function connect(context: SessionContext): Promise<PoolClient> {
  try {
    return await context.pool.connect();
  } catch (error) {
    throw StateUnavailable.of(error, context.where);
  }
}

export function serverRow(result: QueryResult): ServerRow {
  const row = result.rows[0] as { generation: number; shared_offset_ms: number } | undefined;
  return { generation: Number(row?.generation ?? 0), sharedOffsetMs: Number(row?.shared_offset_ms ?? 0) };
}

class Session implements OrganizationSession {
  #done = false;

  constructor(
    private readonly context: SessionContext,
    private readonly client: PoolClient,
    private readonly org: string | undefined,
    readonly version: number,
    readonly exists: boolean,
    readonly server: ServerRow,
    readonly rows: OrganizationRows,
    readonly whole: boolean,
    readonly claims: ClaimRow[],
  ) {}

  commit(changes: OrganizationCommit): Promise<number> {
    return this.commitAs(this.org as string, changes);
  }

  /** The commit (`#commit`); whatever refuses it, or leaves it in doubt and not found, is a StateUnavailable. */
  async commitAs(org: string, changes: OrganizationCommit): Promise<number> {
    try {
      return await this.#commit(org, changes);
    } catch (error) {
      throw StateUnavailable.of(error, this.context.where);
    }
  }

  /**
   * The commit in one round trip: the rows, the organization's version and the commit's token, the claims, COMMIT.
   * A COMMIT answered ROLLBACK (a statement of the pipeline failed) is refused; a connection lost after COMMIT was sent
   * leaves it in doubt, resolved by the token once the database answers again.
   */
  async #commit(org: string, changes: OrganizationCommit): Promise<number> {
    this.#done = true;
    const version = this.version + 1;
    const token = randomUUID();
    const { client } = this;
    const statements = [
      query(client, 'commit_rows', COMMIT_ROWS, commitParameters(org, version, changes)),
      query(
        client,
        'commit_org',
        `INSERT INTO organizations (id, version, last_commit) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET version = excluded.version, last_commit = excluded.last_commit`,
        [org, version, token],
      ),
    ];
    if (changes.claimsDropped.length > 0) {
      statements.push(
        query(
          client,
          'claims_drop',
          'DELETE FROM claims c USING unnest($2::text[], $3::text[]) AS d (w, t) WHERE c.org = $1 AND c.work = d.w AND c.token = d.t',
          [org, changes.claimsDropped.map((claim) => claim.work), changes.claimsDropped.map((claim) => claim.token)],
        ),
      );
    }
    if (changes.claimsTaken.length > 0) {
      statements.push(
        query(
          client,
          'claims_take',
          `INSERT INTO claims (org, work, owner, token, until)
           SELECT $1, w, $2, t, clock_timestamp() + make_interval(secs => l / 1000.0) FROM unnest($3::text[], $4::text[], $5::float8[]) AS c (w, t, l)
           ON CONFLICT (org, work) DO UPDATE SET owner = excluded.owner, token = excluded.token, until = excluded.until`,
          [
            org,
            this.context.instanceId,
            changes.claimsTaken.map((claim) => claim.work),
            changes.claimsTaken.map((claim) => claim.token),
            changes.claimsTaken.map((claim) => claim.leaseMs),
          ],
        ),
      );
    }
    statements.push(query(client, undefined, 'COMMIT'));
    try {
      const results = await pipelined(statements);
      if (results.at(-1)?.command !== 'COMMIT') throw new Error('the database rolled the commit back');
      client.release();
      return version;
    } catch (error) {
      if (!connectionLost(error)) {
        await abandon(client, error);
        throw error;
      }
      client.release(error instanceof Error ? error : new Error(String(error)));
      if (await this.#committed(org, token)) return version;
      throw new StateDatabaseError(
        this.context.database,
        'unreachable',
        `the database went away during the commit (${error instanceof Error ? error.message : String(error)}); it was not saved, or could not be found saved: a retry with the same Idempotency-Key is safe`,
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    if (this.#done) return;
    this.#done = true;
    try {
      await this.client.query('COMMIT');
      this.client.release();
    } catch (error) {
      this.client.release(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Whether a commit whose answer was lost was kept: its token in the organization's row, looked for briefly. */
  async #committed(org: string, token: string): Promise<boolean> {
    const deadline = performance.now() + IN_DOUBT_WAIT_MS;
    while (performance.now() < deadline) {
      try {
        const row = (await this.context.pool.query('SELECT version, last_commit FROM organizations WHERE id = $1', [org]))
          .rows[0] as { version: number; last_commit: string } | undefined;
        return row !== undefined && row.last_commit === token;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return false;
  }
}

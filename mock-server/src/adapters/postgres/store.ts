import { StateUnavailable } from '../../core/errors.js';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import packageJson from '../../../package.json' with { type: 'json' };
import type { StateJournal } from '../../core/state/change-tracker.js';
import type { MockSnapshot } from '../../core/state/model.js';
import type { NewOrganizationSession, OrganizationSession, ServerRow, SharedStore } from '../../core/state/shared-store.js';
import { DEFAULT_LIMITS, type Pool, type PoolClient, type SessionLimits, openPool, pipelined } from './driver.js';
import { snapshotAtFault, StateDatabaseError, unreachable } from './errors.js';
import { openSchema, serverLock } from './schema.js';
import { openNewKey, openOrganization, type SessionContext, serverRow } from './session.js';
import { type DatabaseInspection, inspectDatabase } from './inspect.js';
import { readSnapshot, replaceWith, resetAll, snapshotWrites } from './whole-state.js';
import { type DatabaseAddress, databaseAddress } from './url.js';

/** Options of a PostgreSQL state (`startMockServer({ state: { url, ... } })`; docs/standalone-server.md#postgresql). */
export interface PostgresStateOptions {
  /** `postgres://user:password@host:port/database`, with `?schema=` to name the schema (default `cardrail_mock`). */
  url: string;
  /** Connections this process keeps to the database at most (default 10). */
  poolSize?: number | undefined;
  /** Session limits (ms): idle in a transaction, lock wait, statement, connect. */
  limits?: Partial<SessionLimits> | undefined;
}

/** What the state held when the store opened (RunningMockServer.restored). */
export interface DatabaseSummary {
  existing: boolean;
  organizations: number;
  records: number;
}

/** This release, as the schema records who created and last wrote it. */
const RELEASE = `@cardrail/mock-server ${packageJson.version}`;
const HEARTBEAT_MS = 5_000;
/** Tombstones older than this are pruned; a copy older than the newest pruned one is read whole. */
const TOMBSTONE_KEEP = '10 minutes';
const PRUNE_MS = 60_000;

/**
 * The mock's state in PostgreSQL, shared by every instance pointed at it (`--state postgres://...`): each organization's
 * requests under its row lock, copies brought up to date from the rows written since their version, group commit per
 * organization, claims on webhook attempts, the server-wide clock advance in one row, and every check of a start
 * (schema.ts). See docs/standalone-server.md#several-instances-on-one-database.
 */
export class PgStateStore implements StateJournal, SharedStore {
  readonly instanceId = randomUUID();
  readonly shared = this;
  readonly where: string;
  readonly #context: SessionContext;
  #timers: ReturnType<typeof setInterval>[] = [];
  #closed = false;

  private constructor(
    readonly address: DatabaseAddress,
    private readonly pool: Pool,
    readonly summary: DatabaseSummary,
  ) {
    this.where = `the database at ${address.host}:${address.port}/${address.database}`;
    this.#context = {
      pool,
      database: address.shown,
      where: this.where,
      serverLock: serverLock(address),
      instanceId: this.instanceId,
    };
  }

  /**
   * Connects, checks (and on an empty database creates) the schema, and registers this process. Refused with a
   * StateDatabaseError naming the database and what to do: unreachable, another program's, newer, rights missing.
   */
  static async open(
    options: PostgresStateOptions & { clock?: string; readOnly?: boolean; register?: boolean },
  ): Promise<PgStateStore> {
    const address = databaseAddress(options.url, process.env);
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    const pool = await openPool(address, options.poolSize ?? 10, limits);
    try {
      let client: PoolClient;
      let summary: DatabaseSummary;
      try {
        client = await pool.connect();
      } catch (error) {
        throw unreachable(error, address);
      }
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${serverLock(address)}:schema`]);
        await openSchema(client, address, { release: RELEASE, clock: options.clock, readOnly: options.readOnly });
        const totals = (
          await client.query(
            `SELECT count(*)::int AS organizations, coalesce(sum(records), 0)::int AS records FROM ${address.schema}.tenants`,
          )
        ).rows[0] as { organizations: number; records: number };
        await client.query(options.readOnly ? 'ROLLBACK' : 'COMMIT');
        summary = { existing: totals.organizations > 0, ...totals };
      } catch (error) {
        client.release(true);
        if (error instanceof StateDatabaseError) throw error;
        throw new StateDatabaseError(
          address.shown,
          'server',
          `${address.shown}: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
      }
      client.release();
      const store = new PgStateStore(address, pool, summary);
      if (!options.readOnly && options.register !== false) await store.#register();
      return store;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /** Never called: a shared store's organizations are committed by their batches (core/state/org-gate.ts). */
  commit(): void {
    throw new Error('a PostgreSQL state is committed by each organization, under its lock');
  }

  async organizationOfKey(digest: string): Promise<string | undefined> {
    const row = (
      await this.#reach(() =>
        this.pool.query({ name: 'owner_of_key', text: 'SELECT tenant FROM keys WHERE digest = $1', values: [digest] }),
      )
    ).rows[0] as { tenant: string } | undefined;
    return row === undefined ? undefined : row.tenant.slice(0, row.tenant.lastIndexOf(':'));
  }

  openOrganization(
    organizationId: string,
    since: { version: number; generation: number | undefined },
  ): Promise<OrganizationSession> {
    return openOrganization(this.#context, organizationId, since);
  }

  openNewKey(digest: string): Promise<{ owner: string } | { session: NewOrganizationSession }> {
    return openNewKey(this.#context, digest);
  }

  async server(): Promise<ServerRow> {
    return serverRow(await this.#reach(() => this.pool.query('SELECT generation, shared_offset_ms FROM server')));
  }

  advanceShared(ms: number): Promise<ServerRow> {
    return this.#reach(() => this.#advanceShared(ms));
  }

  async #advanceShared(ms: number): Promise<ServerRow> {
    const client = await this.pool.connect();
    try {
      const results = await pipelined([
        client.query('BEGIN'),
        client.query('SELECT pg_advisory_xact_lock_shared(hashtextextended($1, 0))', [this.#context.serverLock]),
        client.query('UPDATE server SET shared_offset_ms = shared_offset_ms + $1 RETURNING generation, shared_offset_ms', [ms]),
        client.query('COMMIT'),
      ]);
      if (results[3]?.command !== 'COMMIT') throw new Error('the database rolled the clock advance back');
      client.release();
      return serverRow(results[2] as (typeof results)[number]);
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  async dueTenants(at: number, limit: number): Promise<string[]> {
    const rows = await this.#reach(() =>
      this.pool.query({
        name: 'due_tenants',
        text: 'SELECT key FROM tenants WHERE wake_at <= $1 ORDER BY wake_at LIMIT $2',
        values: [at, limit],
      }),
    );
    return rows.rows.map((row: { key: string }) => row.key);
  }

  async expiredClaims(limit: number): Promise<string[]> {
    const rows = await this.#reach(() =>
      this.pool.query({
        name: 'expired_claims',
        text: 'SELECT DISTINCT org FROM claims WHERE until < clock_timestamp() LIMIT $1',
        values: [limit],
      }),
    );
    return rows.rows.map((row: { org: string }) => row.org);
  }

  reset(): Promise<void> {
    return this.#reach(() => resetAll(this.pool, this.#context.serverLock));
  }

  /**
   * Refused as it is when the snapshot is at fault (its records make no rows, values or keys the database rejects, or
   * it reads back otherwise); whatever else fails it (the database away, a connection ended) is a StateUnavailable.
   */
  async replace(snapshot: MockSnapshot): Promise<void> {
    const writes = snapshotWrites(snapshot);
    await this.#reach(() => replaceWith(this.pool, this.#context, writes), snapshotAtFault);
  }

  snapshot(): Promise<MockSnapshot> {
    return this.#reach(() => readSnapshot(this.pool, this.#context));
  }

  /** Every row read and checked, in one read-only snapshot: what `state check` reports. */
  inspect(): Promise<DatabaseInspection> {
    return inspectDatabase(this.pool, this.#context.serverLock);
  }

  /** The other processes serving this state now (a heartbeat in the last 15 s), for `state import`. */
  async liveInstances(): Promise<{ host: string; pid: number }[]> {
    const rows = await this.pool.query(
      "SELECT host, pid FROM instances WHERE seen_at > now() - interval '15 seconds' AND id <> $1 ORDER BY started_at",
      [this.instanceId],
    );
    return rows.rows as { host: string; pid: number }[];
  }

  /**
   * A round trip while serving: whatever fails it (the database away, a connection ended) is a StateUnavailable, but
   * for the errors `ownFault` says are the caller's, which pass as they are.
   */
  async #reach<T>(work: () => Promise<T>, ownFault?: (error: unknown) => boolean): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (ownFault?.(error)) throw error;
      throw StateUnavailable.of(error, this.where);
    }
  }

  /** Unregisters this process and closes its connections. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    await this.pool.query('DELETE FROM instances WHERE id = $1', [this.instanceId]).catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  /** This process in `instances`, seen every few seconds; tombstones pruned once a minute. */
  async #register(): Promise<void> {
    await this.pool.query("DELETE FROM instances WHERE seen_at < now() - interval '1 hour'");
    await this.pool.query('INSERT INTO instances (id, host, pid, release) VALUES ($1, $2, $3, $4)', [
      this.instanceId,
      hostname(),
      process.pid,
      RELEASE,
    ]);
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch(() => undefined), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(HEARTBEAT_MS, () => this.pool.query('UPDATE instances SET seen_at = now() WHERE id = $1', [this.instanceId]));
    every(PRUNE_MS, () =>
      this.pool.query(
        `WITH gone AS (DELETE FROM tombstones WHERE at < now() - interval '${TOMBSTONE_KEEP}' RETURNING org, version)
         UPDATE organizations o SET tomb_floor = greatest(o.tomb_floor, g.version)
         FROM (SELECT org, max(version) AS version FROM gone GROUP BY org) AS g WHERE o.id = g.org`,
      ),
    );
  }
}

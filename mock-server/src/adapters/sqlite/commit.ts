import { apiKeys } from '../../core/directory.js';
import type { StateLine, TenantHeader } from '../../core/state/model.js';
import { checksum } from './checksum.js';
import { StateWriteError } from './errors.js';
import { type DatabaseSync, SQLITE, type StatementSync, sqliteCode } from './node-sqlite.js';

/** What a commit changes in a tenant's row, written once at its end (one statement per tenant, not one per line). */
interface TenantRow {
  header: TenantHeader | undefined;
  /** Its next due time (null: none); undefined when the commit does not say. */
  due: number | null | undefined;
  records: number;
  idempotency: number;
}

const EMPTY_SERVER = JSON.stringify({ sharedOffsetMs: 0, random: null });

/**
 * Writes commits: the lines of one answered request (or of one piece of due work) in one SQLite transaction,
 * committed before the answer leaves. A commit the database refuses (SQLITE_FULL, an I/O error) is rolled back whole
 * and reported as StateWriteError: nothing of it is kept, and the next commit starts from the state before it. Each
 * commit keeps the per-tenant row counts and the database's commit count, which the start-up check holds the rows
 * and state.db.commits against. Every statement is a lookup by key: a commit costs what it changed, whatever the
 * size of the state.
 */
export class CommitWriter {
  readonly #db: DatabaseSync;
  readonly #statements: ReturnType<typeof prepare>;
  #commits: number;
  #sharedOffsetMs: number;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#statements = prepare(db);
    this.#commits = databaseCommits(db);
    this.#sharedOffsetMs = serverOffset(db);
  }

  /** Commits taken so far (the database's own count). */
  get commits(): number {
    return this.#commits;
  }

  /** Applies one commit's lines in one transaction; throws StateWriteError (having kept nothing) when refused. */
  apply(lines: readonly StateLine[]): void {
    const shared = this.#sharedOffsetMs;
    const rows = new Map<string, TenantRow>();
    try {
      this.#statements.begin.run();
      for (const line of lines) this.#line(line, rows);
      const commit = this.#commits + 1;
      for (const [tenant, row] of rows) this.#writeTenant(tenant, row, commit);
      // A commit that changed a tenant carries its number in that tenant's row; one that changed none, in meta.
      if (rows.size === 0) this.#statements.setCommits.run(commit);
      this.#statements.commit.run();
    } catch (error) {
      this.#sharedOffsetMs = shared;
      rollback(this.#db);
      throw refused(error);
    }
    this.#commits++;
  }

  #line(line: StateLine, rows: Map<string, TenantRow>): void {
    const s = this.#statements;
    switch (line[0]) {
      case 'server':
        this.#sharedOffsetMs = line[1].sharedOffsetMs;
        s.setServer.run(JSON.stringify(line[1]));
        return;
      case 'tenant':
        rowOf(rows, line[1]).header = line[2];
        return;
      case 'put': {
        const [, tenant, kind, seq, record] = line;
        const id = (record as { id: string }).id;
        const body = JSON.stringify(record);
        const crc = checksum(body);
        if (Number(s.insertRecord.run(tenant, kind, id, seq, body, crc).changes) > 0) rowOf(rows, tenant).records++;
        else s.updateRecord.run(kind, id, body, crc, tenant, seq);
        if (kind === apiKeys.name) s.putKey.run((record as { digest: string }).digest, tenant, id);
        return;
      }
      case 'delete': {
        const [, tenant, kind, id, seq] = line;
        if (Number(s.deleteRecord.run(tenant, seq).changes) > 0) rowOf(rows, tenant).records--;
        if (kind === apiKeys.name) s.deleteKey.run(tenant, id);
        return;
      }
      case 'idempotency': {
        const [, tenant, record] = line;
        const body = JSON.stringify(record);
        const crc = checksum(body);
        if (Number(s.insertIdempotency.run(tenant, record.key, body, crc).changes) > 0) rowOf(rows, tenant).idempotency++;
        else s.updateIdempotency.run(body, crc, tenant, record.key);
        return;
      }
      case 'forget':
        if (Number(s.deleteIdempotency.run(line[1], line[2]).changes) > 0) rowOf(rows, line[1]).idempotency--;
        return;
      case 'due':
        rowOf(rows, line[1]).due = line[2];
        return;
      case 'reset':
        this.#db.exec('DELETE FROM records; DELETE FROM idempotency; DELETE FROM keys; DELETE FROM tenants;');
        rows.clear();
        this.#sharedOffsetMs = 0;
        s.setServer.run(EMPTY_SERVER);
        return;
    }
  }

  /** A tenant's row: its header (with the server-wide advance it is saved at), next due time and counts. */
  #writeTenant(tenant: string, row: TenantRow, commit: number): void {
    const s = this.#statements;
    if (row.header) {
      const known = row.due !== undefined;
      const offset = row.header.clockOffsetMs;
      s.upsertTenant.run(
        tenant,
        JSON.stringify(row.header),
        offset,
        this.#sharedOffsetMs,
        known ? 1 : 0,
        row.due ?? null,
        known ? wakeAt(row.due ?? null, offset, this.#sharedOffsetMs) : 0,
        row.records,
        row.idempotency,
        commit,
      );
      return;
    }
    if (row.due !== undefined) s.setDue.run(row.due, row.due, row.due, tenant);
    s.count.run(row.records, row.idempotency, commit, tenant);
  }
}

function prepare(db: DatabaseSync) {
  const statement = (sql: string): StatementSync => db.prepare(sql);
  return {
    // Prepared once, like every other statement: a commit parses no SQL.
    begin: statement('BEGIN'),
    commit: statement('COMMIT'),
    setServer: statement("UPDATE meta SET value = ? WHERE name = 'server'"),
    setCommits: statement("UPDATE meta SET value = ? WHERE name = 'commits'"),
    // A commit of a snapshot gives no due time (due_known 0): it is then kept, or unknown for a new row (woken at once).
    upsertTenant: statement(
      `INSERT INTO tenants (key, header, clock_offset_ms, shared_offset_ms, due_known, due_at, wake_at, records, idempotency,
         last_commit)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET header = excluded.header, clock_offset_ms = excluded.clock_offset_ms,
         shared_offset_ms = excluded.shared_offset_ms,
         due_known = CASE WHEN excluded.due_known = 0 THEN due_known ELSE 1 END,
         due_at = CASE WHEN excluded.due_known = 0 THEN due_at ELSE excluded.due_at END,
         wake_at = CASE WHEN excluded.due_known = 0 THEN wake_at ELSE excluded.wake_at END,
         records = records + excluded.records, idempotency = idempotency + excluded.idempotency,
         last_commit = excluded.last_commit`,
    ),
    setDue: statement(
      `UPDATE tenants SET due_known = 1, due_at = ?,
         wake_at = CASE WHEN ? IS NULL THEN NULL ELSE ? - clock_offset_ms + shared_offset_ms END
       WHERE key = ?`,
    ),
    count: statement('UPDATE tenants SET records = records + ?, idempotency = idempotency + ?, last_commit = ? WHERE key = ?'),
    insertRecord: statement('INSERT OR IGNORE INTO records (tenant, kind, id, seq, body, crc) VALUES (?, ?, ?, ?, ?, ?)'),
    updateRecord: statement('UPDATE records SET kind = ?, id = ?, body = ?, crc = ? WHERE tenant = ? AND seq = ?'),
    deleteRecord: statement('DELETE FROM records WHERE tenant = ? AND seq = ?'),
    putKey: statement('INSERT OR REPLACE INTO keys (digest, tenant, id) VALUES (?, ?, ?)'),
    deleteKey: statement('DELETE FROM keys WHERE tenant = ? AND id = ?'),
    insertIdempotency: statement('INSERT OR IGNORE INTO idempotency (tenant, key, body, crc) VALUES (?, ?, ?, ?)'),
    updateIdempotency: statement('UPDATE idempotency SET body = ?, crc = ? WHERE tenant = ? AND key = ?'),
    deleteIdempotency: statement('DELETE FROM idempotency WHERE tenant = ? AND key = ?'),
  };
}

/**
 * When a tenant's work is due on the server clock (the base clock plus the server-wide advance), the scale the store
 * wakes tenants on: its due time on its own test clock, minus its own offset, plus the server-wide advance that offset
 * was saved at. Null when nothing is due.
 */
function wakeAt(dueAt: number | null, clockOffsetMs: number, sharedOffsetMs: number): number | null {
  return dueAt === null ? null : dueAt - clockOffsetMs + sharedOffsetMs;
}

function rowOf(rows: Map<string, TenantRow>, tenant: string): TenantRow {
  let row = rows.get(tenant);
  if (!row) {
    row = { header: undefined, due: undefined, records: 0, idempotency: 0 };
    rows.set(tenant, row);
  }
  return row;
}

/**
 * How many commits the database holds: the highest commit number of its tenants' rows and of meta (a commit writes
 * its number into the rows it changes anyway, and into meta only when it changes none). One pass over the tenants.
 */
export function databaseCommits(db: DatabaseSync): number {
  const row = db
    .prepare(
      "SELECT max((SELECT value FROM meta WHERE name = 'commits'), coalesce((SELECT max(last_commit) FROM tenants), 0)) AS commits",
    )
    .get();
  return Number(row?.commits ?? 0);
}

/** The server-wide clock advance the database holds. */
export function serverOffset(db: DatabaseSync): number {
  const text = db.prepare("SELECT value FROM meta WHERE name = 'server'").get()?.value;
  return typeof text === 'string' ? ((JSON.parse(text) as { sharedOffsetMs?: number }).sharedOffsetMs ?? 0) : 0;
}

/** Ends a failed transaction; SQLite may have rolled it back already (a full disk can do that). */
function rollback(db: DatabaseSync): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // No transaction was active any more.
  }
}

/** A refused commit as StateWriteError, naming why in the words a user acts on. */
function refused(error: unknown): StateWriteError {
  const code = sqliteCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const reason =
    code === SQLITE.FULL
      ? 'the disk is full'
      : code === SQLITE.IOERR
        ? 'an I/O error'
        : code === SQLITE.READONLY
          ? 'the database file is read-only'
          : code === SQLITE.NOMEM
            ? 'out of memory'
            : code === SQLITE.CORRUPT || code === SQLITE.NOTADB
              ? 'the database is damaged'
              : 'the database refused the write';
  return new StateWriteError(`${reason} (${text})`, { cause: error });
}

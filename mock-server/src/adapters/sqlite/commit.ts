import { apiKeys } from '../../core/directory.js';
import type { StateLine } from '../../core/state/model.js';
import { checksum } from './checksum.js';
import { StateWriteError } from './errors.js';
import { type DatabaseSync, SQLITE, type StatementSync, sqliteCode } from './node-sqlite.js';

interface Counts {
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
    this.#commits = Number(db.prepare("SELECT value FROM meta WHERE name = 'commits'").get()?.value ?? 0);
    this.#sharedOffsetMs = serverOffset(db);
  }

  /** Commits taken so far (the database's own count). */
  get commits(): number {
    return this.#commits;
  }

  /** Applies one commit's lines in one transaction; throws StateWriteError (having kept nothing) when refused. */
  apply(lines: readonly StateLine[]): void {
    const shared = this.#sharedOffsetMs;
    const counts = new Map<string, Counts>();
    try {
      this.#db.exec('BEGIN');
      for (const line of lines) this.#line(line, counts);
      for (const [tenant, delta] of counts) {
        if (delta.records !== 0 || delta.idempotency !== 0) this.#statements.count.run(delta.records, delta.idempotency, tenant);
      }
      this.#statements.setCommits.run(this.#commits + 1);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#sharedOffsetMs = shared;
      rollback(this.#db);
      throw refused(error);
    }
    this.#commits++;
  }

  #line(line: StateLine, counts: Map<string, Counts>): void {
    const s = this.#statements;
    switch (line[0]) {
      case 'server':
        this.#sharedOffsetMs = line[1].sharedOffsetMs;
        s.setServer.run(JSON.stringify(line[1]));
        return;
      case 'tenant': {
        const [, key, header] = line;
        s.upsertTenant.run(key, JSON.stringify(header), header.clockOffsetMs, this.#sharedOffsetMs);
        return;
      }
      case 'put': {
        const [, tenant, kind, seq, record] = line;
        const id = (record as { id: string }).id;
        const body = JSON.stringify(record);
        const crc = checksum(body);
        if (Number(s.insertRecord.run(tenant, kind, id, seq, body, crc).changes) > 0) countOf(counts, tenant).records++;
        else s.updateRecord.run(seq, body, crc, tenant, kind, id);
        if (kind === apiKeys.name) s.putKey.run((record as { digest: string }).digest, tenant, id);
        return;
      }
      case 'delete': {
        const [, tenant, kind, id] = line;
        if (Number(s.deleteRecord.run(tenant, kind, id).changes) > 0) countOf(counts, tenant).records--;
        if (kind === apiKeys.name) s.deleteKey.run(tenant, id);
        return;
      }
      case 'idempotency': {
        const [, tenant, record] = line;
        const body = JSON.stringify(record);
        const crc = checksum(body);
        if (Number(s.insertIdempotency.run(tenant, record.key, body, crc).changes) > 0) countOf(counts, tenant).idempotency++;
        else s.updateIdempotency.run(body, crc, tenant, record.key);
        return;
      }
      case 'forget':
        if (Number(s.deleteIdempotency.run(line[1], line[2]).changes) > 0) countOf(counts, line[1]).idempotency--;
        return;
      case 'due':
        s.setDue.run(line[2], line[2], line[2], line[1]);
        return;
      case 'reset':
        this.#db.exec('DELETE FROM records; DELETE FROM idempotency; DELETE FROM keys; DELETE FROM tenants;');
        counts.clear();
        this.#sharedOffsetMs = 0;
        s.setServer.run(EMPTY_SERVER);
        return;
    }
  }
}

function prepare(db: DatabaseSync) {
  const statement = (sql: string): StatementSync => db.prepare(sql);
  return {
    setServer: statement("UPDATE meta SET value = ? WHERE name = 'server'"),
    setCommits: statement("UPDATE meta SET value = ? WHERE name = 'commits'"),
    upsertTenant: statement(
      `INSERT INTO tenants (key, header, clock_offset_ms, shared_offset_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET header = excluded.header, clock_offset_ms = excluded.clock_offset_ms,
         shared_offset_ms = excluded.shared_offset_ms`,
    ),
    // The wake time is on the server clock (base clock plus server-wide advance): the tenant's due time minus its own
    // offset, plus the server-wide advance that offset was saved at.
    setDue: statement(
      `UPDATE tenants SET due_known = 1, due_at = ?,
         wake_at = CASE WHEN ? IS NULL THEN NULL ELSE ? - clock_offset_ms + shared_offset_ms END
       WHERE key = ?`,
    ),
    count: statement('UPDATE tenants SET records = records + ?, idempotency = idempotency + ? WHERE key = ?'),
    insertRecord: statement('INSERT OR IGNORE INTO records (tenant, kind, id, seq, body, crc) VALUES (?, ?, ?, ?, ?, ?)'),
    updateRecord: statement('UPDATE records SET seq = ?, body = ?, crc = ? WHERE tenant = ? AND kind = ? AND id = ?'),
    deleteRecord: statement('DELETE FROM records WHERE tenant = ? AND kind = ? AND id = ?'),
    putKey: statement('INSERT OR REPLACE INTO keys (digest, tenant, id) VALUES (?, ?, ?)'),
    deleteKey: statement('DELETE FROM keys WHERE tenant = ? AND id = ?'),
    insertIdempotency: statement('INSERT OR IGNORE INTO idempotency (tenant, key, body, crc) VALUES (?, ?, ?, ?)'),
    updateIdempotency: statement('UPDATE idempotency SET body = ?, crc = ? WHERE tenant = ? AND key = ?'),
    deleteIdempotency: statement('DELETE FROM idempotency WHERE tenant = ? AND key = ?'),
  };
}

function countOf(counts: Map<string, Counts>, tenant: string): Counts {
  let count = counts.get(tenant);
  if (!count) {
    count = { records: 0, idempotency: 0 };
    counts.set(tenant, count);
  }
  return count;
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

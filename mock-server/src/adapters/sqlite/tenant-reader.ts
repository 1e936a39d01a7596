import type { IdempotencyRecord } from '../../core/idempotency.js';
import type { ServerState, TenantHeader, TenantSnapshot } from '../../core/state/model.js';
import type { StoredTenant, StoredTenants } from '../../core/state/stored-tenants.js';
import { checksum } from './checksum.js';
import { remedyFor, StateDamageError } from './errors.js';
import type { StateFiles } from './files.js';
import type { DatabaseSync, SqlValue } from './node-sqlite.js';

/** Rows read per query when walking the due-time index past tenants already in memory. */
const PAGE = 64;

/**
 * Reads organizations from the database on demand (docs/standalone-server.md#organizations-load-on-demand): a key's
 * owner by its digest, one tenant's rows by its key, the tenants whose work is due from the due-time index. Every
 * row read is checked against its CRC-32 and the tenant's rows against the count kept with it: damage found here is
 * reported (the server stops) rather than loaded.
 */
export class TenantReader implements StoredTenants {
  readonly #statements: ReturnType<typeof prepare>;

  constructor(
    db: DatabaseSync,
    private readonly files: StateFiles,
  ) {
    this.#statements = prepare(db);
  }

  server(): ServerState {
    const text = this.#statements.server.get()?.value;
    const saved = typeof text === 'string' ? (JSON.parse(text) as Partial<ServerState>) : {};
    return { sharedOffsetMs: saved.sharedOffsetMs ?? 0, random: saved.random ?? null };
  }

  ownerOfKey(digest: string): string | undefined {
    const row = this.#statements.ownerOfKey.get(digest);
    return row === undefined ? undefined : String(row.tenant);
  }

  read(tenantKey: string): StoredTenant | undefined {
    return this.readChecked(tenantKey);
  }

  /**
   * A stored tenant, its rows checked. A damaged row throws StateDamageError, unless `skipDamaged` takes it (an
   * export that keeps what can be read): the row is then left out and named there.
   */
  readChecked(tenantKey: string, skipDamaged?: (problem: string) => void): StoredTenant | undefined {
    const s = this.#statements;
    const row = s.tenant.get(tenantKey);
    if (!row) return undefined;
    const damaged = (problem: string): void => {
      if (skipDamaged) skipDamaged(problem);
      else throw new StateDamageError(this.files.database, problem, remedyFor(this.files.dir));
    };
    let header: TenantHeader;
    try {
      header = JSON.parse(String(row.header)) as TenantHeader;
    } catch {
      throw new StateDamageError(
        this.files.database,
        `the header of organization ${tenantKey} is not JSON`,
        remedyFor(this.files.dir),
      );
    }
    const collections: Record<string, [number, unknown][]> = {};
    const records = s.records.all(tenantKey);
    if (records.length !== Number(row.records)) {
      damaged(`organization ${tenantKey} has ${records.length} records where ${String(row.records)} were written`);
    }
    for (const record of records) {
      const body = String(record.body);
      if (checksum(body) !== Number(record.crc)) {
        damaged(
          `the ${String(record.kind)} record ${String(record.id)} of organization ${tenantKey} does not match its checksum (its text was changed)`,
        );
        continue;
      }
      const kind = String(record.kind);
      const entries = collections[kind] ?? [];
      collections[kind] = entries;
      entries.push([Number(record.seq), JSON.parse(body)]);
    }
    for (const entries of Object.values(collections)) entries.sort((a, b) => a[0] - b[0]);
    const idempotency: IdempotencyRecord[] = [];
    const keys = s.idempotency.all(tenantKey);
    if (keys.length !== Number(row.idempotency)) {
      damaged(`organization ${tenantKey} has ${keys.length} idempotency keys where ${String(row.idempotency)} were written`);
    }
    for (const key of keys) {
      const body = String(key.body);
      if (checksum(body) !== Number(key.crc)) {
        damaged(`an idempotency key of organization ${tenantKey} does not match its checksum (its text was changed)`);
        continue;
      }
      idempotency.push(JSON.parse(body) as IdempotencyRecord);
    }
    idempotency.sort((a, b) => a.expiresAt - b.expiresAt);
    const tenant: TenantSnapshot = { ...header, collections, idempotency };
    return {
      tenant,
      sharedOffsetMs: Number(row.shared_offset_ms),
      dueAt: Number(row.due_known) === 1 ? numberOrNull(row.due_at) : undefined,
    };
  }

  *keys(): Generator<string> {
    let after = '';
    for (;;) {
      const rows = this.#statements.keys.all(after, PAGE);
      for (const row of rows) yield String(row.key);
      if (rows.length < PAGE) return;
      after = String(rows[rows.length - 1]?.key);
    }
  }

  dueBy(at: number, skip: (tenantKey: string) => boolean, limit: number): string[] {
    const found: string[] = [];
    this.#walkDue(at, (key) => {
      if (!skip(key)) found.push(key);
      return found.length < limit;
    });
    return found;
  }

  nextDue(skip: (tenantKey: string) => boolean): number | undefined {
    let next: number | undefined;
    this.#walkDue(Number.MAX_SAFE_INTEGER, (key, wakeAt) => {
      if (skip(key)) return true;
      next = wakeAt;
      return false;
    });
    return next;
  }

  /** Tenants by due time (then key) up to `at`, a page at a time, while `visit` asks for more. */
  #walkDue(at: number, visit: (key: string, wakeAt: number) => boolean): void {
    let after: [number, string] = [Number.MIN_SAFE_INTEGER, ''];
    for (;;) {
      const rows = this.#statements.due.all(after[0], after[0], after[1], at, PAGE);
      for (const row of rows) if (!visit(String(row.key), Number(row.wake_at))) return;
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1] as { key: SqlValue; wake_at: SqlValue };
      after = [Number(last.wake_at), String(last.key)];
    }
  }
}

function prepare(db: DatabaseSync) {
  return {
    server: db.prepare("SELECT value FROM meta WHERE name = 'server'"),
    ownerOfKey: db.prepare('SELECT tenant FROM keys WHERE digest = ?'),
    tenant: db.prepare('SELECT header, shared_offset_ms, due_known, due_at, records, idempotency FROM tenants WHERE key = ?'),
    records: db.prepare('SELECT kind, id, seq, body, crc FROM records WHERE tenant = ? ORDER BY seq'),
    idempotency: db.prepare('SELECT body, crc FROM idempotency WHERE tenant = ?'),
    keys: db.prepare('SELECT key FROM tenants WHERE key > ? ORDER BY key LIMIT ?'),
    // Keyset pages over the due-time index: each page starts after the last row of the one before.
    due: db.prepare(
      `SELECT key, wake_at FROM tenants
       WHERE (wake_at > ? OR (wake_at = ? AND key > ?)) AND wake_at <= ?
       ORDER BY wake_at, key LIMIT ?`,
    ),
  };
}

function numberOrNull(value: SqlValue | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

import { STATE_FORMAT } from '../../core/state/model.js';
import type { DatabaseSync } from './node-sqlite.js';

/**
 * The database's schema, by version (`PRAGMA user_version`): each entry takes a database from the version before it
 * to its own, in one transaction, so a store written by an older mock is brought forward on open and one written by
 * a newer mock is refused rather than misread.
 *
 * - `meta`: the format's name, the server-wide state (clock advance, id generator's position), and the number of
 *   the last commit that changed no tenant.
 * - `tenants`: one row per organization and mode: its header (test-clock offset, sequence counter), the server-wide
 *   advance that offset was saved at, its next due work (on its test clock and on the server clock, indexed, so due
 *   work of organizations not in memory is found without reading them), and how many records and idempotency keys
 *   it holds (checked against the rows at start), and the number of the last commit that changed it: the database's
 *   commit count (checked against state.db.commits at start) is the highest of these and meta's, so that a commit
 *   writes no page of its own for it.
 * - `records`: every object, event and delivery record as JSON, with its organization, kind (collection) and id, and a
 *   CRC-32 of its text (checked when it is read); found by organization and sequence number (unique in an
 *   organization across its collections, and increasing: a request's new records land on the same pages, at the end
 *   of its organization's range, so a commit writes few pages).
 * - `idempotency`: the idempotency keys with the answers they replay, and their CRC-32.
 * - `keys`: each API key's SHA-256 digest and its organization, so a request finds its organization without reading
 *   any other.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (name TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID;
  CREATE TABLE tenants (
    key TEXT PRIMARY KEY,
    header TEXT NOT NULL,
    clock_offset_ms INTEGER NOT NULL,
    shared_offset_ms INTEGER NOT NULL,
    due_known INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER,
    wake_at INTEGER DEFAULT 0,
    records INTEGER NOT NULL DEFAULT 0,
    idempotency INTEGER NOT NULL DEFAULT 0,
    last_commit INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE INDEX tenants_by_wake ON tenants (wake_at) WHERE wake_at IS NOT NULL;
  CREATE TABLE records (
    tenant TEXT NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX records_by_seq ON records (tenant, seq);
  CREATE TABLE idempotency (tenant TEXT NOT NULL, key TEXT NOT NULL, body TEXT NOT NULL, crc INTEGER NOT NULL);
  CREATE UNIQUE INDEX idempotency_by_key ON idempotency (tenant, key);
  CREATE TABLE keys (digest TEXT PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL) WITHOUT ROWID;
  CREATE INDEX keys_by_owner ON keys (tenant, id);
  INSERT INTO meta (name, value) VALUES ('format', '${STATE_FORMAT}'), ('commits', 0),
    ('server', '{"sharedOffsetMs":0,"random":null}');
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version a database is at (0: a new, empty database). */
export function schemaVersion(db: DatabaseSync): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}

/** Whether the database holds any table at all (a new file holds none). */
export function hasTables(db: DatabaseSync): boolean {
  return db.prepare("SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' LIMIT 1").get() !== undefined;
}

/** Brings the schema to SCHEMA_VERSION, each step in its own transaction. */
export function migrate(db: DatabaseSync, from: number): void {
  for (let version = from; version < SCHEMA_VERSION; version++) {
    db.exec('BEGIN');
    try {
      db.exec(MIGRATIONS[version] as string);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

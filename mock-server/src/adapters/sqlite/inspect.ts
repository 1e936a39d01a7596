import { existsSync, statSync } from 'node:fs';
import { checkDatabase, checkEveryRecord, checkFilesBeforeOpen, walState } from './check.js';
import { readSeal } from './commit-seal.js';
import { databaseCommits, serverOffset } from './commit.js';
import { asDamage, asOpenRefusal, remedyFor, StateDamageError } from './errors.js';
import { type StateFiles, stateFiles } from './files.js';
import { openReadOnly } from './read-only.js';
import { hasTables } from './schema.js';
import { TenantReader } from './tenant-reader.js';

/** A state directory opened to be read, not served (`cardrail-mock state check|export`). */
export interface InspectedState {
  files: StateFiles;
  reader: TenantReader;
  /** The server-wide clock advance and id generator position the database holds. */
  server: { sharedOffsetMs: number; random: unknown };
  /** Everything found wrong (empty when nothing was). */
  problems: string[];
  facts: { organizations: number; records: number; idempotencyKeys: number; commits: number; bytes: number };
  close(): void;
}

/**
 * Opens a state directory's database to inspect or export it: read-only (read-only.ts: nothing written, nothing
 * checkpointed, every file left as it was, byte for byte), in one read that a server running on the directory
 * refuses, with every check a start makes and, with `thorough`, SQLite's full integrity check and every row's
 * checksum. Problems are collected, not thrown; a write-ahead log that is not the database's own is one of them, and
 * the database is then read without it (what moving it aside would leave).
 */
export function inspectState(dir: string, options: { thorough: boolean }): InspectedState {
  const files = stateFiles(dir);
  if (!existsSync(files.database)) {
    const seal = readSeal(files.seal);
    const made = typeof seal === 'object' ? `, yet ${seal.commits} commits were made to it (${files.seal})` : '';
    throw new StateDamageError(
      files.database,
      `does not exist${made}`,
      made ? remedyFor(files.dir) : 'Nothing to read: this directory holds no state',
    );
  }
  const wal = walState(files);
  const seal = readSeal(files.seal);
  const problems: string[] = [];
  let withoutLog = false;
  try {
    checkFilesBeforeOpen(files, seal);
  } catch (error) {
    // Another copy's log: reported, and the database read as if it were moved aside. Anything else stops here.
    if (!(error instanceof StateDamageError) || error.file !== files.wal) throw error;
    problems.push(error.message);
    withoutLog = true;
  }
  let opened: ReturnType<typeof openReadOnly>;
  try {
    opened = openReadOnly(files, { withoutLog });
  } catch (error) {
    throw asOpenRefusal(asDamage(error, files), files);
  }
  const { db } = opened;
  try {
    if (!hasTables(db)) {
      problems.push(new StateDamageError(files.database, 'holds no state (no table)', remedyFor(files.dir)).message);
    } else {
      const found = checkDatabase(db, files, seal, { thorough: options.thorough, wal: withoutLog ? 'missing' : wal });
      // A database without the mock's tables (another program's) has nothing more to read.
      const [first] = found;
      if (first && db.prepare("SELECT 1 AS found FROM sqlite_schema WHERE name = 'records'").get() === undefined) throw first;
      for (const damage of found) problems.push(damage.message);
    }
    const reader = new TenantReader(db, files);
    if (options.thorough && problems.length === 0)
      for (const problem of checkEveryRecord(reader)) problems.push(`${files.database}: ${problem}`);
    const count = (sql: string): number => {
      try {
        return Number(Object.values(db.prepare(sql).get() ?? {})[0] ?? 0);
      } catch {
        return 0;
      }
    };
    const server = safe(
      () =>
        JSON.parse(String(db.prepare("SELECT value FROM meta WHERE name = 'server'").get()?.value ?? '{}')) as {
          random?: unknown;
        },
      {},
    );
    return {
      files,
      reader,
      server: { sharedOffsetMs: safe(() => serverOffset(db), 0), random: server.random ?? null },
      problems,
      facts: {
        organizations: count('SELECT count(*) FROM tenants'),
        records: count('SELECT coalesce(sum(records), 0) FROM tenants'),
        idempotencyKeys: count('SELECT coalesce(sum(idempotency), 0) FROM tenants'),
        commits: safe(() => databaseCommits(db), 0),
        bytes: statSync(files.database).size + (existsSync(files.wal) ? statSync(files.wal).size : 0),
      },
      close: () => opened.close(),
    };
  } catch (error) {
    opened.close();
    throw error;
  }
}

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

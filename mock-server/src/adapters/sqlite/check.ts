import { existsSync, statSync } from 'node:fs';
import type { SealContent } from './commit-seal.js';
import { databaseCommits } from './commit.js';
import { remedyFor, restoreDatabase, StateDamageError } from './errors.js';
import type { StateFiles } from './files.js';
import type { DatabaseSync } from './node-sqlite.js';
import { SCHEMA_VERSION } from './schema.js';
import type { TenantReader } from './tenant-reader.js';

/** How many of SQLite's integrity messages a damage report quotes. */
const QUOTED_MESSAGES = 3;

/**
 * Damage a state directory shows before SQLite opens it: a database that is missing, or empty, where the seal says
 * commits were made (SQLite would otherwise start a new, empty one in its place, and every key would open a new,
 * empty organization).
 */
export function checkFilesBeforeOpen(files: StateFiles, seal: SealContent | 'damaged' | undefined): void {
  if (seal === undefined || seal === 'damaged' || seal.commits === 0) return;
  if (!existsSync(files.database)) {
    throw new StateDamageError(
      files.database,
      `is missing, yet ${seal.commits} commits were made to it (${files.seal})`,
      restoreDatabase(files.dir),
    );
  }
  if (statSync(files.database).size === 0 && !existsSync(files.wal)) {
    throw new StateDamageError(
      files.database,
      `is empty, yet ${seal.commits} commits were made to it (${files.seal})`,
      restoreDatabase(files.dir),
    );
  }
}

/**
 * Everything checked at start, in order; the first damage found is returned (`all` collects every one instead, for
 * `cardrail-mock state check`): the schema is one this mock reads, the commit count in the database is the one
 * state.db.commits recorded (fewer: commits of a removed, emptied or damaged write-ahead log are missing), SQLite's
 * own check of every page (`quick_check`, or the fuller `integrity_check`), and the rows of each organization are as
 * many as the counts kept with it. Cost: one read of the file, in SQLite's C code (about 0.3 s for 170 MB here).
 */
export function checkDatabase(
  db: DatabaseSync,
  files: StateFiles,
  seal: SealContent | 'damaged' | undefined,
  options: { thorough?: boolean; wal?: WalState } = {},
): StateDamageError[] {
  const problems: StateDamageError[] = [];
  const damage = (file: string, problem: string) => problems.push(new StateDamageError(file, problem, remedyFor(files.dir)));
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (version > SCHEMA_VERSION) {
    problems.push(
      new StateDamageError(
        files.database,
        `was written by a newer cardrail-mock (schema version ${version}; this one reads up to ${SCHEMA_VERSION})`,
        'Run a release of @cardrail/mock-server at least as new as the one that wrote it',
      ),
    );
    return problems;
  }
  const format = db.prepare("SELECT value FROM meta WHERE name = 'format'").get()?.value;
  if (format !== 'cardrail-mock-state') {
    damage(files.database, 'is not a cardrail-mock state database (its meta table names no cardrail-mock-state format)');
    return problems;
  }
  const commits = databaseCommits(db);
  if (seal === 'damaged') damage(files.seal, 'is not in its format (`commits <20 digits> pid <10 digits>`)');
  else if (seal === undefined && commits > 0) {
    damage(
      files.seal,
      `is missing: the ${commits} commits state.db holds cannot be checked against the count written with each of them`,
    );
  } else if (seal !== undefined && seal.commits > commits) {
    const wal = options.wal ?? walState(files);
    const walWords = wal === 'missing' ? 'was removed' : wal === 'empty' ? 'was emptied' : 'was overwritten or damaged';
    damage(
      files.database,
      `holds ${commits} commits, but ${seal.commits} were made (${files.seal}): the last ${seal.commits - commits} are missing. ` +
        `Its write-ahead log ${files.wal} ${walWords}` +
        ' (or, with --state-fsync interval, a power loss came before they reached the disk)',
    );
  }
  const check = db.prepare(options.thorough ? 'PRAGMA integrity_check' : 'PRAGMA quick_check').all();
  const messages = check.map((row) => String(Object.values(row)[0]));
  if (messages.length !== 1 || messages[0] !== 'ok') {
    const quoted = messages.slice(0, QUOTED_MESSAGES).join('; ');
    const more = messages.length > QUOTED_MESSAGES ? ` (and ${messages.length - QUOTED_MESSAGES} more)` : '';
    damage(files.database, `fails SQLite's integrity check: ${quoted}${more}`);
    // Counting rows of a damaged file may fail or mislead: the pages come first.
    return problems;
  }
  for (const problem of countProblems(db)) damage(files.database, problem);
  return problems;
}

/** What the write-ahead log looked like before SQLite opened the database (opening creates an empty one). */
export type WalState = 'missing' | 'empty' | 'present';

export function walState(files: StateFiles): WalState {
  if (!existsSync(files.wal)) return 'missing';
  return statSync(files.wal).size === 0 ? 'empty' : 'present';
}

/** Organizations whose rows are not as many as the counts kept with them. */
function countProblems(db: DatabaseSync): string[] {
  const written = new Map<string, { records: number; idempotency: number }>();
  for (const row of db.prepare('SELECT key, records, idempotency FROM tenants').all()) {
    written.set(String(row.key), { records: Number(row.records), idempotency: Number(row.idempotency) });
  }
  const problems: string[] = [];
  const compare = (sql: string, kind: 'records' | 'idempotency', noun: string) => {
    const found = new Map<string, number>();
    for (const row of db.prepare(sql).all()) found.set(String(row.tenant), Number(row.count));
    for (const [tenant, count] of found) {
      const expected = written.get(tenant);
      if (!expected) problems.push(`${count} ${noun} belong to organization ${tenant}, which it does not hold`);
      else if (expected[kind] !== count)
        problems.push(`organization ${tenant} has ${count} ${noun} where ${expected[kind]} were written`);
    }
    for (const [tenant, expected] of written) {
      if (expected[kind] > 0 && !found.has(tenant))
        problems.push(`organization ${tenant} has 0 ${noun} where ${expected[kind]} were written`);
    }
  };
  // Both counts read the narrow indexes, not the records themselves.
  compare('SELECT tenant, count(*) AS count FROM records GROUP BY tenant', 'records', 'records');
  compare('SELECT tenant, count(*) AS count FROM idempotency GROUP BY tenant', 'idempotency', 'idempotency keys');
  return problems;
}

/** Every organization's rows read and checked against their checksums (`state check`): the problems found. */
export function checkEveryRecord(reader: TenantReader): string[] {
  const problems: string[] = [];
  for (const key of reader.keys()) reader.readChecked(key, (problem) => problems.push(problem));
  return problems;
}

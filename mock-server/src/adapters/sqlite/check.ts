import { existsSync, statSync } from 'node:fs';
import type { SealContent } from './commit-seal.js';
import { databaseCommits } from './commit.js';
import { remedyFor, restoreDatabase, StateDamageError } from './errors.js';
import { NO_WAL, sameWal, type WalHeader, walHeaderOf, walIdentityText, walTransactions } from './wal-file.js';
import type { StateFiles } from './files.js';
import type { DatabaseSync } from './node-sqlite.js';
import { SCHEMA_VERSION } from './schema.js';
import type { TenantReader } from './tenant-reader.js';

/** How many of SQLite's integrity messages a damage report quotes. */
const QUOTED_MESSAGES = 3;

/**
 * Damage a state directory shows before SQLite opens it, found without opening it (SQLite would act on some of it as
 * it opens: start a new, empty database in place of a missing one, and every key would open a new, empty
 * organization; delete the write-ahead log beside an empty database; copy another copy's log into this database):
 * a file that is not a file, a database missing or empty where the seal says commits were made, and a write-ahead log
 * that is not this database's (checkWal).
 */
export function checkFilesBeforeOpen(files: StateFiles, seal: SealContent | 'damaged' | undefined): void {
  for (const file of [files.database, files.wal, files.seal]) {
    if (existsSync(file) && !statSync(file).isFile()) {
      throw new StateDamageError(
        file,
        'is not a file (a directory or another kind of entry stands where cardrail-mock keeps its state)',
        `Move it out of ${files.dir}, or give --state a directory of its own`,
      );
    }
  }
  const made = typeof seal === 'object' ? seal.commits : 0;
  const present = existsSync(files.database) && statSync(files.database).size > 0;
  if (made > 0 && !present) {
    const what = existsSync(files.database) ? 'is empty' : 'is missing';
    throw new StateDamageError(
      files.database,
      `${what}, yet ${made} commits were made to it (${files.seal})`,
      restoreDatabase(files.dir),
    );
  }
  const log = walHeaderOf(files.wal);
  if (!present && log !== undefined && walTransactions(files.wal, log) > 0) {
    throw new StateDamageError(
      files.wal,
      `is a write-ahead log holding commits, beside ${existsSync(files.database) ? 'an empty' : 'no'} state.db: it belongs to no database here (SQLite would delete it)`,
      `Move it aside (\`mv ${files.wal} ${files.wal}.aside\`) to start with an empty state, or put back the state.db it belongs to`,
    );
  }
  if (log !== undefined && typeof seal === 'object') checkWal(files, seal, log);
}

/**
 * The write-ahead log beside the database is the one its seal recorded with the last commit, or the one SQLite began
 * with a commit whose seal was not written yet (the process stopped between the two): the next log (checkpoint
 * sequence one higher, first salt one higher) or a new one (checkpoint sequence 0), holding that one transaction.
 * Anything else is another copy's log, which SQLite would copy into this database as if it were its own, leaving it
 * damaged: refused, naming it, before SQLite reads it. A seal of an earlier release records no log, and proves
 * nothing either way.
 */
function checkWal(files: StateFiles, seal: SealContent, log: WalHeader): void {
  const recorded = seal.wal;
  if (recorded === undefined || sameWal(log, recorded)) return;
  const transactions = walTransactions(files.wal, log);
  if (transactions === 0) return;
  const next = log.checkpoint === 0 || (log.checkpoint === recorded.checkpoint + 1 && log.salt1 === (recorded.salt1 + 1) >>> 0);
  if (next && transactions === 1) return;
  throw new StateDamageError(
    files.wal,
    `is not the write-ahead log of state.db: it holds ${transactions} commits under the identity ${walIdentityText(log)}, where ${files.seal} recorded ${sameWal(recorded, NO_WAL) ? 'no log' : `the log ${walIdentityText(recorded)}`} with the last commit. It comes from another copy of the directory, and SQLite would copy its pages into state.db, damaging it`,
    `Nothing was changed. Move it aside (\`mv ${files.wal} ${files.wal}.foreign\`) and start again: the start then says how many of the last commits state.db lacks, which \`cardrail-mock state export ${files.dir} --force\` can still save; or put back the log that belongs with this state.db`,
  );
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
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all();
  const names = tables.map((row) => String(row.name));
  if (!names.includes('meta')) {
    const listed = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
    problems.push(
      new StateDamageError(
        files.database,
        `is the database of another program, not a cardrail-mock state (its tables: ${listed}; no meta table naming the cardrail-mock-state format)`,
        `It was left as it was. Give --state a directory of its own (a new or empty one), or move ${files.database} out of ${files.dir}`,
      ),
    );
    return problems;
  }
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
  if (seal === 'damaged')
    damage(files.seal, 'is not in its format (`commits <20 digits> pid <10 digits> wal <24 hexadecimal digits>`)');
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

import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { checkDatabase, checkFilesBeforeOpen, walState } from './check.js';
import { claimSeal, readSeal, type SealContent } from './commit-seal.js';
import { asDamage, asOpenRefusal, restoreDatabase, StateDamageError, StateDirectoryError, StateInUseError } from './errors.js';
import type { StateFiles } from './files.js';
import { legacyState } from './legacy-import.js';
import { hasLegacyJournal, legacyLockHolder } from './legacy-journal.js';
import { isAlive, lockedDatabase } from './lock.js';
import { closeQuietly, type DatabaseSync, databaseClass } from './node-sqlite.js';
import { openReadOnly } from './read-only.js';
import { hasTables } from './schema.js';

/** A state directory checked, then locked for this process: the connection, and what else the start found. */
export interface OpenedDirectory {
  db: DatabaseSync;
  unlock: () => void;
  /** The journal format of earlier releases, read (and refused if damaged) before anything was created beside it. */
  legacy: ReturnType<typeof legacyState> | undefined;
}

/**
 * Opens a state directory for a server: every check a start makes runs before anything is written, on the files
 * themselves and on a read-only connection (check.ts, read-only.ts), so that a start refused leaves every file as it
 * was, byte for byte (SQLite itself would copy the write-ahead log into the database and remove it on closing a
 * connection that could write). Only then is the database opened for writing and locked (lock.ts), and the seal names
 * this process as the holder. Every refusal names the file, what is wrong and what to do.
 */
export function openDirectory(files: StateFiles): OpenedDirectory {
  mkdirSync(files.dir, { recursive: true });
  const holder = legacyLockHolder(files.dir);
  if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
    throw new StateInUseError(
      `The state directory ${files.dir} is in use by process ${holder} (an earlier cardrail-mock's lock file).`,
      holder,
    );
  }
  const legacy = hasLegacyJournal(files.dir) ? legacyState(files) : undefined;
  const seal = readSeal(files.seal);
  checkFilesBeforeOpen(files, seal);
  refuseUnwritable(files);
  if (existsSync(files.database) && statSync(files.database).size > 0) checkReadOnly(files, seal);
  const DatabaseSync = databaseClass();
  const { db, unlock } = lockedDatabase(DatabaseSync, files);
  try {
    // Another process may have written the directory between the checks and the lock: they would not hold.
    const sealNow = readSeal(files.seal);
    if (JSON.stringify(sealNow) !== JSON.stringify(seal)) {
      throw new StateInUseError(
        `The state directory ${files.dir} changed while this server checked it (${files.seal}: another process wrote to it): start again.`,
        undefined,
      );
    }
    claimSeal(files.seal);
  } catch (error) {
    closeQuietly(db);
    unlock();
    throw error;
  }
  return { db, unlock, legacy };
}

/** The database's checks (check.ts), on a connection that cannot write; the first damage found is thrown. */
function checkReadOnly(files: StateFiles, seal: SealContent | 'damaged' | undefined): void {
  let opened: ReturnType<typeof openReadOnly>;
  try {
    opened = openReadOnly(files);
  } catch (error) {
    throw asOpenRefusal(asDamage(error, files), files);
  }
  try {
    if (!hasTables(opened.db)) {
      if (typeof seal === 'object' && seal.commits > 0) {
        throw new StateDamageError(
          files.database,
          `holds no state, yet ${seal.commits} commits were made to it (${files.seal}): it was emptied or replaced`,
          restoreDatabase(files.dir),
        );
      }
      return;
    }
    const [problem] = checkDatabase(opened.db, files, seal, { wal: walState(files) });
    if (problem) throw problem;
  } catch (error) {
    throw asOpenRefusal(asDamage(error, files), files);
  } finally {
    opened.close();
  }
}

/**
 * The directory and its files can be written by this user, on a file system that is not read-only: asked of the
 * system before SQLite opens them, since SQLite then opens a file it cannot write read-only and fails later with
 * `disk I/O error` (it cannot take a write lock on it), naming nothing.
 */
function refuseUnwritable(files: StateFiles): void {
  for (const path of [files.dir, files.database, files.wal, files.seal]) {
    if (path !== files.dir && !existsSync(path)) continue;
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
      throw new StateDirectoryError(files.dir, code, error, path === files.dir ? undefined : path);
    }
  }
}

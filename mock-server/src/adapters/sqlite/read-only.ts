import { existsSync, rmSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { StateFiles } from './files.js';
import { refuseHeldHere, whileLocked } from './lock.js';
import { closeQuietly, type DatabaseSync, databaseClass, SQLITE, sqliteCode } from './node-sqlite.js';

/** A database opened to be read and never written: the checks of a start, `state check`, `state export`. */
export interface ReadOnlyDatabase {
  db: DatabaseSync;
  /** Ends the read and closes the connection, leaving the directory as it found it. */
  close(): void;
}

/**
 * Opens the database read-only, in one read transaction held until `close` (so no server starts on the directory
 * meanwhile, and one that runs refuses this: its exclusive lock makes the first read SQLITE_BUSY, and the refusal names
 * it). Nothing is written to the database or its write-ahead log, and nothing is checkpointed on close (a read-only
 * connection cannot): a log SQLite would copy into the database stays as it was, beside it. A read-only connection
 * keeps its index of the log in a shared-memory file (`state.db-shm`), which the server's exclusive mode never uses:
 * it is removed again on close when it was not there before (and so is the empty log SQLite may create). `withoutLog` reads the database file alone, as if no log
 * were beside it (SQLite's `immutable`: no lock, no shared memory either), to say what it holds without a log that is
 * not its own.
 */
export function openReadOnly(files: StateFiles, options: { withoutLog?: boolean } = {}): ReadOnlyDatabase {
  refuseHeldHere(files);
  const DatabaseSync = databaseClass();
  const shm = `${files.database}-shm`;
  const shmWasThere = existsSync(shm);
  const immutable = `${pathToFileURL(files.database).href}?immutable=1`;
  const target = options.withoutLog ? immutable : files.database;
  const walWasThere = existsSync(files.wal);
  // What a read-only connection makes beside the database (its log index, an empty log) is removed again.
  const removeWhatItMade = () => {
    if (!shmWasThere) rmSync(shm, { force: true });
    if (!walWasThere && existsSync(files.wal) && statSync(files.wal).size === 0) rmSync(files.wal, { force: true });
  };
  const attempt = (path: string) => {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      db.exec('BEGIN');
      // The read transaction starts at the first read: a locked database is refused here.
      db.prepare('SELECT count(*) AS tables FROM sqlite_schema').get();
      return db;
    } catch (error) {
      closeQuietly(db);
      throw error;
    }
  };
  // On a read-only file system SQLite cannot make the log's index; with no log to read, the file is read alone.
  const logEmpty = !walWasThere || statSync(files.wal).size === 0;
  let db: DatabaseSync;
  try {
    db = whileLocked(files, () => {
      try {
        return attempt(target);
      } catch (error) {
        if (options.withoutLog || !logEmpty || sqliteCode(error) !== SQLITE.CANTOPEN) throw error;
        return attempt(immutable);
      }
    });
  } catch (error) {
    removeWhatItMade();
    throw error;
  }
  return {
    db,
    close() {
      try {
        db.exec('COMMIT');
      } catch {
        // No read was open any more.
      }
      closeQuietly(db);
      removeWhatItMade();
    },
  };
}

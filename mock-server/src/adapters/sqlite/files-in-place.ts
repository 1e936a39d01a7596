import { closeSync, fstatSync, openSync } from 'node:fs';
import { StateDamageError } from './errors.js';
import type { StateFiles } from './files.js';
import type { DatabaseSync } from './node-sqlite.js';
import { NO_WAL, readWalHeader, type WalIdentity } from './wal-file.js';

/**
 * state.db and its write-ahead log as the running store opened them, each held by a descriptor of its own, so that the
 * store notices when one is removed or replaced under it: SQLite would go on writing through its own descriptors to
 * a file no path leads to any more, and every commit from then on would be lost with the process. A file is gone when
 * its descriptor's link count is 0 (removed, or replaced by a rename over its path). One fstat each, per commit and
 * per check: O(1), whatever the size of the state.
 */
export class FilesInPlace {
  readonly #files: StateFiles;
  readonly #database: number;
  #wal: number | undefined;
  #walIdentity: WalIdentity = NO_WAL;

  constructor(files: StateFiles) {
    this.#files = files;
    this.#database = openSync(files.database, 'r');
  }

  /** Whether state.db was removed or replaced since the store opened it. */
  databaseGone(): boolean {
    return fstatSync(this.#database).nlink === 0;
  }

  /** Whether the write-ahead log the store writes to was removed or replaced since. */
  walGone(): boolean {
    return this.#wal !== undefined && fstatSync(this.#wal).nlink === 0;
  }

  /** The log's size in bytes (0 when it is not there yet). */
  walBytes(): number {
    const fd = this.#walDescriptor();
    return fd === undefined ? 0 : fstatSync(fd).size;
  }

  /**
   * The identity of the log after the last commit (its header, written by SQLite when it starts the log over); the one
   * read before when the log is empty (checkpointed and cut to nothing: the next commit starts it again).
   */
  walIdentity(): WalIdentity {
    const fd = this.#walDescriptor();
    const header = fd === undefined ? undefined : readWalHeader(fd);
    if (header) this.#walIdentity = { checkpoint: header.checkpoint, salt1: header.salt1, salt2: header.salt2 };
    return this.#walIdentity;
  }

  /**
   * A log removed under the server is made anew at its path: leaving WAL mode copies every commit of the old one
   * into state.db and closes it; coming back makes a new one.
   */
  restartWal(db: DatabaseSync): void {
    db.exec('PRAGMA journal_mode = DELETE');
    db.exec('PRAGMA journal_mode = WAL');
    this.forgetWal();
  }

  forgetWal(): void {
    if (this.#wal !== undefined) closeSync(this.#wal);
    this.#wal = undefined;
    this.#walIdentity = NO_WAL;
  }

  close(): void {
    this.forgetWal();
    closeSync(this.#database);
  }

  #walDescriptor(): number | undefined {
    if (this.#wal === undefined) {
      try {
        this.#wal = openSync(this.#files.wal, 'r');
      } catch {
        return undefined;
      }
    }
    return this.#wal;
  }
}

/**
 * state.db removed or replaced under the server: SQLite writes through its own descriptor to a file no path leads to,
 * so nothing can be answered as saved from then on. What the connection still reads (every commit made) is written
 * back to the path when nothing else is there, and the refusal says so: the server stops on it.
 */
export function databaseLost(db: DatabaseSync, files: StateFiles, commits: number): StateDamageError {
  let saved = false;
  try {
    db.exec(`VACUUM INTO '${files.database.replaceAll("'", "''")}'`);
    saved = true;
  } catch {
    // Something is at the path again (or the directory is gone): it is not overwritten.
  }
  return new StateDamageError(
    files.database,
    'was removed or replaced while the server ran: SQLite went on writing to the file it had open, which no path leads to any more, so no write is answered after that',
    saved
      ? `The server stopped. Everything it had committed (${commits} commits) was written back to ${files.database}: start it again`
      : `The server stopped; ${files.database} was not written back, since something else is there now. Restore it, with ${files.seal}, from a backup`,
  );
}

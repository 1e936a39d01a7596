import { readFileSync } from 'node:fs';
import { readSeal } from './commit-seal.js';
import { StateInUseError } from './errors.js';
import type { StateFiles } from './files.js';
import { type DatabaseSync, SQLITE, sqliteCode } from './node-sqlite.js';

/** Directories a store of this process holds (SQLite's locks do not tell two connections of one process apart). */
const heldHere = new Set<string>();

/**
 * One process per directory, by construction: the database is opened in SQLite's EXCLUSIVE locking mode and an
 * exclusive transaction is begun at once, so this connection holds the database file's exclusive lock (an OS file
 * lock, released by the kernel when the process ends, however it ends) until it closes. A second process, or two
 * started at the same instant, get SQLITE_BUSY: exactly one runs. The loser waits briefly first, so that a process
 * that lost a simultaneous start and is letting go does not make the winner fail too.
 */
export function lockDirectory(db: DatabaseSync, files: StateFiles): () => void {
  if (heldHere.has(files.dir)) throw new StateInUseError(`The state directory ${files.dir} is already open in this process.`, process.pid);
  db.exec('PRAGMA busy_timeout = 1500');
  db.exec('PRAGMA locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (error) {
    const code = sqliteCode(error);
    if (code === SQLITE.BUSY || code === SQLITE.LOCKED || /database is locked/i.test(String(error))) throw inUse(files);
    throw error;
  }
  db.exec('PRAGMA busy_timeout = 0');
  heldHere.add(files.dir);
  return () => heldHere.delete(files.dir);
}

/** Names the process holding the directory, from the pid it wrote in state.db.commits once it had the lock. */
function inUse(files: StateFiles): StateInUseError {
  const seal = readSeal(files.seal);
  const pid = typeof seal === 'object' && seal.pid !== 0 && seal.pid !== process.pid && isAlive(seal.pid) ? seal.pid : undefined;
  const holder = pid === undefined ? 'another process' : `process ${pid}`;
  return new StateInUseError(
    `The state directory ${files.dir} is in use by ${holder} (${files.database} is locked): one server per directory. Stop that server first, or start this one with another --state directory.`,
    pid,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody reaped yet (a container without an init) still answers signal 0: a zombie holds nothing.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

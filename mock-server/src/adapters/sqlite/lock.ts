import { readFileSync } from 'node:fs';
import { readSeal } from './commit-seal.js';
import { asDamage, StateInUseError } from './errors.js';
import type { StateFiles } from './files.js';
import { type DatabaseSync, type databaseClass, SQLITE, sqliteCode } from './node-sqlite.js';

/** Directories a store of this process holds (SQLite's locks do not tell two connections of one process apart). */
const heldHere = new Set<string>();

/** How long one attempt waits for the lock (a process that lost a simultaneous start lets go within it). */
const ATTEMPT_WAIT_MS = 250;
/** How long attempts go on while the holder is not known yet (it writes its pid once it has the lock). */
const GIVE_UP_AFTER_MS = 3_000;

/**
 * One process per directory, by construction: the database is opened in SQLite's EXCLUSIVE locking mode and an
 * exclusive transaction is begun at once, so the connection holds the database file's exclusive lock (an OS file lock,
 * released by the kernel when the process ends, however it ends) until it closes. A second process gets SQLITE_BUSY
 * and is refused, naming the holder's pid (which the holder writes into state.db.commits as soon as it has the lock).
 * Two processes started at the same instant may each take the shared lock first; SQLite then refuses one of them at
 * once, which closes its connection (letting the other through) and tries again, to find the lock held: exactly one
 * runs. Resolves with the locked connection and the function that releases it.
 */
export function lockDirectory(open: () => DatabaseSync, files: StateFiles): { db: DatabaseSync; unlock: () => void } {
  refuseHeldHere(files);
  const db = whileLocked(files, () => {
    const db = open();
    try {
      db.exec(`PRAGMA busy_timeout = ${ATTEMPT_WAIT_MS}`);
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
      db.exec('PRAGMA busy_timeout = 0');
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  });
  heldHere.add(files.dir);
  return { db, unlock: () => heldHere.delete(files.dir) };
}

/** Refuses a directory a store of this process holds (SQLite would only say it is locked). */
export function refuseHeldHere(files: StateFiles): void {
  if (heldHere.has(files.dir))
    throw new StateInUseError(`The state directory ${files.dir} is already open in this process.`, process.pid);
}

/**
 * Runs `attempt` (which opens and locks, or reads, the database) again while SQLite says the database is locked by
 * another process, until that process is known (it writes its pid into state.db.commits as soon as it holds the lock:
 * the refusal names it) or a few seconds have passed.
 */
export function whileLocked<T>(files: StateFiles, attempt: () => T): T {
  const started = Date.now();
  for (;;) {
    try {
      return attempt();
    } catch (error) {
      const code = sqliteCode(error);
      if (code !== SQLITE.BUSY && code !== SQLITE.LOCKED && !/database is locked/i.test(String(error))) throw error;
      const holder = holderPid(files);
      if (holder !== undefined || Date.now() - started > GIVE_UP_AFTER_MS) throw inUse(files, holder);
      sleep(20 + Math.random() * 30);
    }
  }
}

/** The live process (not this one) whose pid state.db.commits names, if any. */
function holderPid(files: StateFiles): number | undefined {
  const seal = readSeal(files.seal);
  return typeof seal === 'object' && seal.pid !== 0 && seal.pid !== process.pid && isAlive(seal.pid) ? seal.pid : undefined;
}

function inUse(files: StateFiles, pid: number | undefined): StateInUseError {
  const holder = pid === undefined ? 'another process' : `process ${pid}`;
  return new StateInUseError(
    `The state directory ${files.dir} is in use by ${holder} (${files.database} is locked): one server per directory. Stop that server first, or start this one with another --state directory.`,
    pid,
  );
}

/** Blocks this thread (opening a store is synchronous, and this wait is at most a few tens of milliseconds). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether a process runs (a zombie does not count: it holds no lock). */
export function isAlive(pid: number): boolean {
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

/** The database, opened and locked; SQLite's errors about a damaged file are StateDamageError naming it. */
export function lockedDatabase(
  DatabaseSync: ReturnType<typeof databaseClass>,
  files: StateFiles,
): ReturnType<typeof lockDirectory> {
  try {
    return lockDirectory(() => new DatabaseSync(files.database), files);
  } catch (error) {
    throw asDamage(error, files);
  }
}

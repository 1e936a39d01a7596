import type { StateFiles } from './files.js';
import { SQLITE, sqliteCode } from './node-sqlite.js';
/**
 * Damage found in a state directory: what stops a server from starting (or a running one, when a record read on
 * demand fails its checksum), always naming the file, what is wrong and what to do.
 */
export class StateDamageError extends Error {
  constructor(
    /** The damaged file. */
    readonly file: string,
    /** What is wrong with it. */
    readonly problem: string,
    /** What the user can do. */
    readonly remedy: string,
  ) {
    super(`${file}: ${problem}. ${remedy}`);
    this.name = 'StateDamageError';
  }
}

/** The directory is held by another process (or already open in this one). */
export class StateInUseError extends Error {
  constructor(
    message: string,
    /** The process holding it, when known. */
    readonly pid: number | undefined,
  ) {
    super(message);
    this.name = 'StateInUseError';
  }
}

/**
 * A commit the database refused (a full disk, an I/O error, a read-only file): rolled back, nothing of it kept. The
 * store stays usable; a later commit may succeed.
 */
export class StateWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StateWriteError';
  }
}

/** How to recover from damage, with the directory's own commands. */
export function remedyFor(dir: string): string {
  return (
    `Restore the directory from a backup; or keep what can still be read: \`cardrail-mock state export ${dir} --force > state.json\`, ` +
    `then \`cardrail-mock state import <new-dir> state.json\` and start on <new-dir>. ` +
    `\`cardrail-mock state check ${dir}\` lists everything it finds.`
  );
}

/** What to do when the database itself is gone (removed, emptied or replaced): nothing in the directory can help. */
export function restoreDatabase(dir: string): string {
  return (
    `Restore state.db (with state.db.commits) from a backup, or import a snapshot into a new directory (\`cardrail-mock state import <new-dir> <snapshot.json>\`); ` +
    `removing ${dir} starts the mock with an empty state`
  );
}

/** SQLite's "damaged file" errors as StateDamageError naming the file; anything else as it is. */
export function asDamage(error: unknown, files: StateFiles): unknown {
  if (error instanceof StateDamageError || error instanceof StateInUseError) return error;
  const code = sqliteCode(error);
  const text = error instanceof Error ? error.message : String(error);
  if (code === SQLITE.CORRUPT || /malformed/i.test(text)) {
    return new StateDamageError(files.database, `is damaged (SQLite: ${text})`, remedyFor(files.dir));
  }
  if (code === SQLITE.NOTADB || /not a database/i.test(text)) {
    return new StateDamageError(
      files.database,
      `is not an SQLite database, or its header is damaged (SQLite: ${text})`,
      remedyFor(files.dir),
    );
  }
  return error;
}

/**
 * The state directory, or a file in it, cannot be created or written (permissions, a read-only file system, a file in
 * the way, a full disk): the message names the directory (and the file), the cause and what to do, instead of the
 * system's bare `EPERM ... mkdir` or SQLite's `disk I/O error` (what SQLite says when it cannot lock a file it could
 * only open for reading).
 */
export class StateDirectoryError extends Error {
  constructor(
    /** The directory given as the state (`--state`), resolved. */
    readonly dir: string,
    /** The system's error code, or SQLite's (`SQLITE_CANTOPEN`). */
    readonly code: string,
    cause: unknown,
    /** The file in it that cannot be written, when it is one of its files rather than the directory. */
    readonly file?: string | undefined,
  ) {
    const problem = DIRECTORY_PROBLEMS[code] ?? 'it cannot be created or written';
    super(
      `The state directory ${dir} cannot be used: ${file === undefined ? '' : `${file} cannot be written: `}${problem} (${code}). ` +
        remedyForAccess(code, file),
      { cause },
    );
    this.name = 'StateDirectoryError';
  }
}

const DIRECTORY_PROBLEMS: Record<string, string> = {
  EACCES: 'permission denied: this user may not create or write it',
  EPERM: 'the operation is not permitted there (a protected or virtual file system)',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'the path is a file, not a directory',
  ENOSPC: 'the disk is full',
  SQLITE_CANTOPEN: 'the database in it cannot be created or opened (is the directory writable?)',
  SQLITE_READONLY: 'the database in it is read-only',
};

function remedyForAccess(code: string, file: string | undefined): string {
  if (code === 'EROFS') {
    return 'The server writes every commit there: give --state a directory on a writable file system (such as ./cardrail-state), or mount that one read-write. `cardrail-mock state check|export` read a state where it is.';
  }
  if (file !== undefined && (code === 'EACCES' || code === 'SQLITE_READONLY')) {
    return `Make it writable for this user (\`chmod u+w ${file}\`, or run as its owner), or give --state another directory.`;
  }
  return 'Pass --state a directory this user can create and write (such as ./cardrail-state), or fix that one.';
}

/** An error of opening the directory as StateDirectoryError when it is one of access; anything else as it is. */
export function asDirectoryProblem(error: unknown, dir: string): unknown {
  if (!(error instanceof Error) || error instanceof StateDamageError || error instanceof StateInUseError) return error;
  if (error instanceof StateDirectoryError) return error;
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno !== undefined && errno in DIRECTORY_PROBLEMS && !errno.startsWith('SQLITE')) {
    return new StateDirectoryError(dir, errno, error);
  }
  const sqlite = sqliteCode(error);
  if (sqlite === SQLITE.CANTOPEN) return new StateDirectoryError(dir, 'SQLITE_CANTOPEN', error);
  if (sqlite === SQLITE.READONLY) return new StateDirectoryError(dir, 'SQLITE_READONLY', error);
  return error;
}

/**
 * Whatever else stops a state from opening, as a refusal that names the database, what SQLite said and what to do:
 * no start ends on a bare SQLite message.
 */
export function asOpenRefusal(error: unknown, files: StateFiles): unknown {
  if (
    !(error instanceof Error) ||
    error instanceof StateDamageError ||
    error instanceof StateInUseError ||
    error instanceof StateDirectoryError ||
    sqliteCode(error) === undefined
  ) {
    return error;
  }
  return new StateDamageError(
    files.database,
    `cannot be opened as a cardrail-mock state (SQLite: ${error.message})`,
    `Nothing was changed. Check that ${files.dir} is a cardrail-mock state directory this user may read and write; \`cardrail-mock state check ${files.dir}\` says what it finds`,
  );
}

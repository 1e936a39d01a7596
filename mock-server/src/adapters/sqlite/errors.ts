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

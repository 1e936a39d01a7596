/**
 * node:sqlite, loaded when a state directory is opened and never before: nothing that runs without `--state` reaches
 * it, so the mock still runs on Node.js 20 (which has no node:sqlite) everywhere else. Only the part of its API that
 * Node.js 22.13 (where it runs without a flag) already has is used, and typed here, since @types/node of the
 * packages' Node 20 floor does not describe it.
 */

/** The oldest Node.js whose node:sqlite runs without a flag. */
const SQLITE_MIN_NODE = [22, 13, 0] as const;

export type SqlValue = null | number | bigint | string | Uint8Array;

export interface StatementSync {
  run(...parameters: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...parameters: SqlValue[]): Record<string, SqlValue> | undefined;
  all(...parameters: SqlValue[]): Record<string, SqlValue>[];
}

export interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}

interface SqliteModule {
  DatabaseSync: new (path: string, options?: { open?: boolean; readOnly?: boolean }) => DatabaseSync;
}

/** --state asked of a Node.js without node:sqlite. */
class NodeTooOldError extends Error {
  constructor(version: string) {
    super(
      `--state needs Node.js ${SQLITE_MIN_NODE.slice(0, 2).join('.')} or newer: the state is kept in SQLite through ` +
        `Node's built-in node:sqlite, which this Node.js (${version}) does not have. Run the mock on Node.js 22.13+ ` +
        '(24 is the one the project uses), or leave --state out to keep the state in memory.',
    );
    this.name = 'NodeTooOldError';
  }
}

/** Whether this Node.js has an unflagged node:sqlite (22.13 or newer). */
export function hasNodeSqlite(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [needMajor, needMinor, needPatch] = SQLITE_MIN_NODE;
  if (major !== needMajor) return major > needMajor;
  if (minor !== needMinor) return minor > needMinor;
  return patch >= needPatch;
}

let loaded: SqliteModule | undefined;

/** node:sqlite's DatabaseSync, or NodeTooOldError naming the version needed. */
export function databaseClass(): SqliteModule['DatabaseSync'] {
  if (loaded) return loaded.DatabaseSync;
  if (!hasNodeSqlite()) throw new NodeTooOldError(process.version);
  // Node 22 announces node:sqlite as experimental on first load; the mock states which versions it supports, so the
  // notice is dropped (only that one: any other warning passes through).
  const emitWarning = process.emitWarning;
  process.emitWarning = function filtered(this: typeof process, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === 'ExperimentalWarning' && String(warning).includes('SQLite')) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const { getBuiltinModule } = process as unknown as { getBuiltinModule?: (id: string) => unknown };
    loaded = getBuiltinModule?.call(process, 'node:sqlite') as SqliteModule | undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  if (!loaded) throw new NodeTooOldError(process.version);
  return loaded.DatabaseSync;
}

/** SQLite's primary result code of an error node:sqlite threw, when it carries one. */
export function sqliteCode(error: unknown): number | undefined {
  const fields = error as { errcode?: unknown; sqliteCode?: unknown } | null;
  const code = typeof fields?.errcode === 'number' ? fields.errcode : fields?.sqliteCode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** SQLite result codes the store tells apart (https://sqlite.org/rescode.html). */
export const SQLITE = {
  BUSY: 5,
  LOCKED: 6,
  NOMEM: 7,
  READONLY: 8,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
} as const;

/** Closes a database, whether or not it is open still. */
export function closeQuietly(db: DatabaseSync): void {
  try {
    db.close();
  } catch {
    // Closed already.
  }
}

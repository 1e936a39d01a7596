import { join, resolve } from 'node:path';

/** The files of a state directory (docs/standalone-server.md#files). */
export interface StateFiles {
  dir: string;
  /** The database: every organization's records, keys, idempotency keys and due times. */
  database: string;
  /** SQLite's write-ahead log: commits not yet copied into the database; removing it loses them. */
  wal: string;
  /** How many commits were made, and which process holds the directory (see commit-seal.ts). */
  seal: string;
}

const DATABASE_NAME = 'state.db';

export function stateFiles(dir: string): StateFiles {
  const absolute = resolve(dir);
  const database = join(absolute, DATABASE_NAME);
  return { dir: absolute, database, wal: `${database}-wal`, seal: `${database}.commits` };
}

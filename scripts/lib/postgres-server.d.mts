/** A PostgreSQL server started by startPostgres, in a temporary folder of its own. */
export interface PostgresServer {
  /** `postgres://postgres:cardrail@127.0.0.1:<port>/postgres` (the superuser). */
  url: string;
  port: number;
  /** The server's folder (data/, owner.pid), removed by close(). */
  dir: string;
  /** Its data folder (a template for another server once stopped). */
  data: string;
  /** Where its binaries came from. */
  binaries: string;
  /** The URL of a database of this server, as a role (default the superuser). */
  urlOf(database: string, user?: string, password?: string): string;
  /** Stops it: `fast` (SIGINT), `immediate` (SIGQUIT, like a crash), `kill` (SIGKILL to it and its children). */
  stop(mode?: 'fast' | 'immediate' | 'kill'): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** Where initdb and postgres are, or undefined when neither the npm package nor the machine has them. */
export function findBinaries(): { bin: string; lib: string | undefined; kind: string } | undefined;
export function freePort(): Promise<number>;
export function startPostgres(options?: {
  template?: string;
  port?: number;
  settings?: Record<string, string>;
}): Promise<PostgresServer>;
/** Removes the folders (and stops the servers) of runs whose process is gone. */
export function sweepStale(): void;

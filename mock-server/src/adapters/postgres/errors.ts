import type { DatabaseAddress } from './url.js';

/** Why a PostgreSQL state was refused (StateDatabaseError.reason). */
export type DatabaseRefusal =
  /** The server cannot be reached, or refused the connection (host, port, password, database). */
  | 'unreachable'
  /** The database holds another program's tables, or the schema holds something that is not a cardrail-mock state. */
  | 'foreign'
  /** Written by a newer release of @cardrail/mock-server. */
  | 'newer'
  /** The role lacks a right the store needs. */
  | 'rights'
  /** A read-only server or role, or a server too old. */
  | 'server'
  /** Instances with another clock (`--frozen-clock`) use it. */
  | 'clock'
  /** A row fails its checksum, or an organization's rows are not as many as written. */
  | 'damage'
  /** The state is in use (import while instances run) or not empty (import). */
  | 'busy';

/**
 * A PostgreSQL state that cannot be used as it is: the message names the database (never its password), what is
 * wrong and what to do (docs/standalone-server.md#postgresql).
 */
export class StateDatabaseError extends Error {
  constructor(
    /** The database, as `postgres://user@host:port/db` (no password). */
    readonly database: string,
    readonly reason: DatabaseRefusal,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StateDatabaseError';
  }
}

/** What a connection attempt's error means, in the words a user acts on (no stack, no password). */
export function unreachable(error: unknown, address: DatabaseAddress): StateDatabaseError {
  const where = `${address.host}:${address.port}`;
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  const cause =
    code === 'ECONNREFUSED'
      ? `cannot reach the database at ${where} (connection refused): is PostgreSQL running there?`
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `cannot reach the database at ${where}: the host name ${address.host} does not resolve`
        : code === 'ETIMEDOUT' || /timeout/i.test(text)
          ? `cannot reach the database at ${where}: no answer in time (a firewall, or the wrong host)`
          : code === '28P01'
            ? `the database at ${where} refused the password of role "${address.user}": check the password in the URL (or PGPASSWORD)`
            : code === '28000'
              ? `the database at ${where} refused role "${address.user}" (${text}): check the role and pg_hba.conf`
              : code === '3D000'
                ? `the database "${address.database}" does not exist at ${where}: create it (createdb ${address.database}, or CREATE DATABASE ${address.database})`
                : code === '53300'
                  ? `the database at ${where} has no connection left (too many clients): raise max_connections or lower the pool size`
                  : code === '57P03'
                    ? `the database at ${where} is starting up or shutting down: start the mock once it accepts connections`
                    : /terminated unexpectedly|ECONNRESET/i.test(text)
                      ? `the server at ${where} closed the connection at once: is it a PostgreSQL server (not another service on that port)?`
                      : `cannot use the database at ${where}: ${text}`;
  return new StateDatabaseError(address.shown, 'unreachable', `${cause} (--state ${address.shown})`, { cause: error });
}

/**
 * Whether a restore failed for the snapshot's sake, not the database's: it read back otherwise than it was written
 * (`damage`), or the database rejected its rows: SQLSTATE class 21 (cardinality violation: one row written twice, as
 * an organization listed twice), 22 (data exception: a value) or 23 (integrity constraint violation: a key). Anything
 * else (the database away, a connection ended, a timeout) is no fault of the snapshot.
 */
export function snapshotAtFault(error: unknown): boolean {
  if (error instanceof StateDatabaseError) return error.reason === 'damage';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[123][0-9A-Z]{3}$/.test(code);
}

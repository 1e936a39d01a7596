import type { Pool, PoolClient, PoolConfig, QueryResult } from 'pg';
import type { DatabaseAddress } from './url.js';

export type { Pool, PoolClient, QueryResult };

/** The session limits of every connection the store opens (docs/standalone-server.md#when-the-database-goes-away). */
export interface SessionLimits {
  /** Ends a session idle inside a transaction (a frozen or paused process holding a lock), in ms. */
  idleInTransactionMs: number;
  /** How long a statement waits for a lock before it is refused (an organization busy in a frozen process), in ms. */
  lockTimeoutMs: number;
  /** The longest a statement may run, in ms. */
  statementTimeoutMs: number;
  /** How long connecting may take, in ms. */
  connectTimeoutMs: number;
}

export const DEFAULT_LIMITS: SessionLimits = {
  idleInTransactionMs: 10_000,
  lockTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  connectTimeoutMs: 5_000,
};

/**
 * node-postgres (`pg`), loaded only for a PostgreSQL state, as node:sqlite only for a state directory: a mock that
 * never uses one never reads it. It is a dependency of @cardrail/mock-server; an install that left it out (a bundle,
 * a pruned node_modules) is told what to install.
 */
async function loadPg(): Promise<typeof import('pg')> {
  try {
    const module = (await import('pg')) as typeof import('pg') & { default?: typeof import('pg') };
    return module.default ?? module;
  } catch (error) {
    throw new Error(
      `a PostgreSQL state needs the pg package, which could not be loaded (${error instanceof Error ? error.message : String(error)}): install it beside @cardrail/mock-server (npm install pg)`,
    );
  }
}

/**
 * A pool of pipelining connections to the database (every query of a batch goes out at once: `pipeline`), each with
 * the session limits set, int8 read as a number (the mock's values stay below 2^53), and every connection's errors
 * handled: a connection the server ends (a restart: 57P01) while a batch holds it must not end the process.
 */
export async function openPool(address: DatabaseAddress, size: number, limits: SessionLimits): Promise<Pool> {
  const pg = await loadPg();
  const bigint = (text: string) => Number(text);
  const config: PoolConfig & { pipeline: boolean } = {
    connectionString: address.connectionString,
    max: size,
    pipeline: true,
    keepAlive: true,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    lock_timeout: limits.lockTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    application_name: 'cardrail-mock',
    options: `-c search_path=${address.schema}`,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? bigint : pg.types.getTypeParser(oid, format ?? 'text')) as never,
    },
  };
  const pool = new pg.Pool(config);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * Runs queries of one transaction at once on a pipelining connection and waits for every one: the first failure is
 * thrown once all have settled (a pipelined transaction whose statement fails answers every later one with 25P02, and
 * its COMMIT with ROLLBACK: the caller checks the COMMIT's command).
 */
export async function pipelined(queries: Promise<QueryResult>[]): Promise<QueryResult[]> {
  const settled = await Promise.allSettled(queries);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map((result) => (result as PromiseFulfilledResult<QueryResult>).value);
}

/** Whether an error means the connection is gone (the server stopped, restarted, or the network dropped it). */
export function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P') || code.startsWith('E'))) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Connection terminated|connection error|not queryable|ECONNRESET|EPIPE|socket/i.test(message);
}

/** Ends a transaction that failed: rolled back, the connection given back (or destroyed when it is gone). */
export async function abandon(client: PoolClient, error: unknown): Promise<void> {
  if (connectionLost(error)) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (rollback) {
    client.release(rollback instanceof Error ? rollback : new Error(String(rollback)));
  }
}

import type { Pool, PoolClient } from './driver.js';

/**
 * Runs `read` in one read-only, repeatable-read transaction that no reset or restore can cut through, and gives the
 * connection back: `read`'s queries see one state, whole, while instances serve.
 *
 * Repeatable read alone is not enough. A reset or restore empties the tables with TRUNCATE, which PostgreSQL does not
 * make MVCC-safe: a transaction whose snapshot was taken before the TRUNCATE committed sees the emptied tables as empty
 * (https://www.postgresql.org/docs/current/sql-truncate.html, "Notes"), so a read that met a restore halfway would
 * return the server row of one state and no organization at all. Resets and restores take the server lock alone
 * (whole-state.ts); this takes it shared before the snapshot exists: as a session lock, since the first statement of a
 * repeatable-read transaction fixes its snapshot before a lock it asks for is granted. Batches take the lock shared
 * too, so they go on meanwhile; repeatable read keeps their commits out of the read.
 */
export async function readConsistently<T>(
  pool: Pool,
  serverLock: string,
  read: (client: Pick<PoolClient, 'query'>) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock_shared(hashtextextended($1, 0))', [serverLock]);
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await read(client);
    await client.query('COMMIT');
    await client.query('SELECT pg_advisory_unlock_shared(hashtextextended($1, 0))', [serverLock]);
    client.release();
    return result;
  } catch (error) {
    // The connection goes with its session lock and its transaction, whatever state they were left in.
    client.release(true);
    throw error;
  }
}

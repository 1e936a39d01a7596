import pg from 'pg';
import { inject } from 'vitest';

let made = 0;

/** The shared test server's superuser URL with another database in place of `postgres`. */
export function databaseUrl(database: string, user = 'postgres', password = 'cardrail'): string {
  const url = new URL(inject('postgresUrl'));
  url.pathname = `/${database}`;
  if (user !== 'postgres') {
    url.username = user;
    url.password = password;
  }
  return url.href;
}

/** Runs SQL as the superuser on a database of the shared server (`postgres` by default). */
export async function sql<T = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  database = 'postgres',
): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(database) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A new, empty database on the shared server for this test file (its name says which): its superuser URL. */
export async function freshDatabase(label: string): Promise<string> {
  const name = `cardrail_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${process.pid}_${++made}`;
  await sql(`DROP DATABASE IF EXISTS ${name}`);
  await sql(`CREATE DATABASE ${name}`);
  return databaseUrl(name);
}

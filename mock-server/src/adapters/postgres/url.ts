/** A PostgreSQL state's address, as `--state postgres://...` gives it (docs/standalone-server.md#postgresql). */
export interface DatabaseAddress {
  /** The URL pg connects with: the given one, without the mock's own parameters (`schema`). */
  connectionString: string;
  /** The schema holding the mock's tables (`?schema=`; default `cardrail_mock`). */
  schema: string;
  host: string;
  port: number;
  database: string;
  user: string;
  /** The URL as messages show it: the password left out. */
  shown: string;
}

/** Whether a `--state` value (or `startMockServer`'s `state`) names a PostgreSQL database rather than a directory. */
export function isDatabaseUrl(state: string): boolean {
  return /^postgres(ql)?:\/\//i.test(state);
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Reads a `postgres://user:password@host:port/database?schema=...` URL (also `postgresql://`; any parameter pg reads,
 * such as `sslmode`, is passed on). Refused with a message naming what is wrong: a schema that is not a plain lower-case
 * identifier, a URL that does not parse.
 */
export function databaseAddress(text: string, env: Record<string, string | undefined> = {}): DatabaseAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--state ${redact(text)} is not a URL (postgres://user:password@host:5432/database)`);
  }
  const schema = url.searchParams.get('schema') ?? 'cardrail_mock';
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`--state ${redact(text)}: schema must be a lower-case identifier (letters, digits, _), got ${schema}`);
  }
  url.searchParams.delete('schema');
  const host = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')) || env.PGHOST || 'localhost';
  const port = Number(url.port || env.PGPORT || 5432);
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || env.PGDATABASE || decodeURIComponent(url.username);
  const user = decodeURIComponent(url.username) || env.PGUSER || 'postgres';
  const shown = new URL(url.href);
  shown.password = '';
  if (schema !== 'cardrail_mock') shown.searchParams.set('schema', schema);
  return { connectionString: url.href, schema, host, port, database, user, shown: shown.href };
}

/** A URL with its password replaced, for any message (the password is never printed). */
export function redact(text: string): string {
  return text.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

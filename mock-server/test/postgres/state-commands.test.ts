// `cardrail-mock --state postgres://...` refusals and `state check|export|import` against a PostgreSQL state, run as a
// user runs them: the built CLI in its own process, against a database of the server the suite started.
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/adapters/node.js';
import { SqliteStateStore } from '../../src/adapters/sqlite/store.js';
import { createMockServer } from '../../src/index.js';
import { normalizedTenant } from '../../src/core/state/compare.js';
import type { MockSnapshot } from '../../src/core/state/model.js';
import { freePort } from '../../../scripts/lib/postgres-server.mjs';
import { killChildren, runCliToExit } from '../support/cli-process.js';
import { newKey } from '../support/keys.js';
import { fakeReceivers, runTour, TOUR_START, tourOptions } from '../support/state-tour.js';
import { tempDirs } from '../support/temp-dirs.js';
import { databaseUrl, freshDatabase, sql } from './support/databases.js';

afterEach(() => killChildren());
const stateDir = tempDirs('cardrail-pg-state-');

/** A refusal as the user sees it: exit code 1, one line naming the problem, no stack, no password. */
function expectRefusal(result: { code: number | null; output: string }, named: RegExp): void {
  expect(result.code, result.output).toBe(1);
  expect(result.output).toMatch(named);
  expect(result.output).not.toMatch(/\n\s+at /);
  expect(result.output).not.toContain('cardrail@');
  expect(result.output.trim().split('\n')).toHaveLength(1);
}

function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}

describe('--state postgres:// refusals', () => {
  it('names the host and port of a database that cannot be reached', async () => {
    const port = await freePort();
    const result = await runCliToExit(['--port', '0', '--state', `postgres://mock:secret@127.0.0.1:${port}/cardrail`]);
    expectRefusal(result, new RegExp(`cannot reach the database at 127\\.0\\.0\\.1:${port} \\(connection refused\\)`));
    expect(result.output).not.toContain('secret');
  });

  it('names a port where another kind of server listens', async () => {
    const http = createServer((_request, response) => response.end('not postgres'));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as AddressInfo;
    try {
      const result = await runCliToExit(['--port', '0', '--state', `postgres://mock:secret@127.0.0.1:${port}/cardrail`]);
      expectRefusal(result, new RegExp(`127\\.0\\.0\\.1:${port}.*is it a PostgreSQL server`));
    } finally {
      http.close();
    }
  });

  it('refuses a database that holds another program’s tables, naming them', async () => {
    const url = await freshDatabase('foreign');
    await sql('CREATE TABLE users (id int); CREATE TABLE orders (id int)', [], databaseName(url));
    const result = await runCliToExit(['--port', '0', '--state', url]);
    expectRefusal(result, /holds tables of another program \(public\.orders, public\.users\)/);
    // Nothing was created beside them.
    const schemas = await sql("SELECT 1 FROM pg_namespace WHERE nspname = 'cardrail_mock'", [], databaseName(url));
    expect(schemas).toHaveLength(0);
  });

  it('refuses a state written by a newer release, naming its schema version and writer', async () => {
    const url = await freshDatabase('newer');
    const server = await startMockServer({ port: 0, state: url, dashboard: false });
    await server.close();
    await sql(
      "UPDATE cardrail_mock.meta SET value = CASE name WHEN 'schema_version' THEN '7' ELSE '@cardrail/mock-server 9.0.0' END WHERE name IN ('schema_version', 'written_by')",
      [],
      databaseName(url),
    );
    const result = await runCliToExit(['--port', '0', '--state', url]);
    expectRefusal(result, /written by @cardrail\/mock-server 9\.0\.0 \(schema version 7\).*reads up to 1/);
  });

  it('names the right a role lacks, and the GRANT that gives it', async () => {
    const url = await freshDatabase('rights');
    const database = databaseName(url);
    const server = await startMockServer({ port: 0, state: url, dashboard: false });
    await server.close();
    const role = `reader_${process.pid}`;
    await sql(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await sql(`CREATE ROLE ${role} LOGIN PASSWORD 'reader-pass'`);
    const asRole = databaseUrl(database, role, 'reader-pass');
    expectRefusal(
      await runCliToExit(['--port', '0', '--state', asRole]),
      new RegExp(`role "${role}" may not use the schema cardrail_mock \\(USAGE\\): GRANT USAGE ON SCHEMA cardrail_mock`),
    );
    await sql(
      `GRANT USAGE ON SCHEMA cardrail_mock TO ${role}; GRANT SELECT ON ALL TABLES IN SCHEMA cardrail_mock TO ${role}`,
      [],
      database,
    );
    expectRefusal(
      await runCliToExit(['--port', '0', '--state', asRole]),
      new RegExp(`role "${role}" may not write cardrail_mock\\.`),
    );
    // An empty database the role may not create a schema in.
    const empty = databaseName(await freshDatabase('rights_empty'));
    expectRefusal(
      await runCliToExit(['--port', '0', '--state', databaseUrl(empty, role, 'reader-pass')]),
      new RegExp(`role "${role}" may not create the schema cardrail_mock: GRANT CREATE ON DATABASE ${empty}`),
    );
  });
});

describe('state check|export|import of a PostgreSQL state', () => {
  /** The tour's state in a new state directory (every kind of record, both variants, pending deliveries). */
  async function sqliteTour(): Promise<string> {
    const dir = stateDir();
    const store = SqliteStateStore.open({ path: dir });
    const mock = createMockServer({ ...tourOptions(fakeReceivers().fetch), seed: undefined, journal: store });
    await runTour(mock);
    await mock.idle();
    await mock.stop(0);
    await store.close();
    return dir;
  }

  const counts = (output: string) => /\((\d+ organizations?, \d+ records?, \d+ idempotency keys?)/.exec(output)?.[1];
  const tenants = (file: string) =>
    (JSON.parse(readFileSync(file, 'utf8')) as MockSnapshot).tenants
      .map((tenant) => JSON.stringify(normalizedTenant(tenant)))
      .sort();

  it('moves a state directory into PostgreSQL and back with identical counts and records', async () => {
    const dir = await sqliteTour();
    const url = await freshDatabase('round_trip');
    const files = stateDir();
    const fromSqlite = join(files, 'from-sqlite.json');
    const fromPostgres = join(files, 'from-postgres.json');
    const sqliteCheck = await runCliToExit(['state', 'check', dir]);
    expect(sqliteCheck.code, sqliteCheck.output).toBe(0);

    expect((await runCliToExit(['state', 'export', dir, '--out', fromSqlite])).code).toBe(0);
    const imported = await runCliToExit(['state', 'import', url, fromSqlite]);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toMatch(/read back and verified/);
    const pgCheck = await runCliToExit(['state', 'check', url]);
    expect(pgCheck.code, pgCheck.output).toBe(0);
    expect(counts(pgCheck.output)).toBe(counts(sqliteCheck.output));

    expect((await runCliToExit(['state', 'export', url, '--out', fromPostgres])).code).toBe(0);
    expect(tenants(fromPostgres)).toEqual(tenants(fromSqlite));
    const back = stateDir();
    expect((await runCliToExit(['state', 'import', back, fromPostgres])).code).toBe(0);
    const backCheck = await runCliToExit(['state', 'check', back]);
    expect(backCheck.code, backCheck.output).toBe(0);
    expect(counts(backCheck.output)).toBe(counts(sqliteCheck.output));

    // An instance on the imported database serves it: the tour's organization answers with its records.
    const server = await startMockServer({ port: 0, state: url, frozenClock: TOUR_START, dashboard: false });
    try {
      const answer = await fetch(`${server.url}/customers`, { headers: { Authorization: 'Bearer sk_test_statetour0001' } });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('refuses an import beside a running instance or into a state that is not empty; check names damage', async () => {
    const url = await freshDatabase('import_refusals');
    const file = join(stateDir(), 'empty.json');
    const server = await startMockServer({ port: 0, state: url, dashboard: false });
    const key = newKey();
    const created = await fetch(`${server.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(created.status).toBe(201);
    // Export while the instance serves (one read-only snapshot), then import refused while it runs.
    expect((await runCliToExit(['state', 'export', url, '--out', file])).code).toBe(0);
    expectRefusal(await runCliToExit(['state', 'import', url, file]), /is served by 1 instance .*stop them before an import/);
    await server.close();
    expectRefusal(await runCliToExit(['state', 'import', url, file]), /holds a state already \(1 organization\)/);

    await sql(
      "UPDATE cardrail_mock.records SET body = replace(body, 'ada@', 'eve@') WHERE kind = 'customers'",
      [],
      databaseName(url),
    );
    const check = await runCliToExit(['state', 'check', url]);
    expect(check.code).toBe(1);
    expect(check.output).toMatch(/the customers record cus_\S+ of organization \S+ does not match its checksum/);
    // check changed nothing: the row is still the edited one.
    const rows = await sql<{ body: string }>(
      "SELECT body FROM cardrail_mock.records WHERE kind = 'customers'",
      [],
      databaseName(url),
    );
    expect(rows[0]?.body).toContain('eve@');
  });
});

// A snapshot read while another instance resets or restores the state (docs/standalone-server.md#postgresql): it is
// one state, whole. A reset or restore empties the tables with TRUNCATE, which a reader whose snapshot predates it
// would see as empty tables beside the server row of the state before; the read waits for the restore instead.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';
import { newKey } from '../support/keys.js';
import { api, until } from './support/api.js';
import { freshDatabase } from './support/databases.js';

const TOKEN = 'control-token-read-during-restore-0123456789';
const TABLES = ['records', 'idempotency', 'tombstones', 'keys', 'claims', 'tenants', 'organizations'];

describe('a snapshot read while the state is restored', () => {
  let url: string;
  let server: RunningMockServer;
  beforeAll(async () => {
    url = await freshDatabase('read_during_restore');
    server = await startMockServer({ port: 0, state: url, dashboard: false, control: { token: TOKEN } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('waits for the restore and reads the state it stored, not emptied tables', async () => {
    const call = api(server.url, newKey());
    expect((await call('POST', '/customers', { email: 'kept@example.com' })).status).toBe(201);

    // What a restore of the same state does (whole-state.ts), held open: the server lock alone, every table emptied
    // and written again, a new generation.
    const restorer = new pg.Client({ connectionString: url, options: '-c search_path=cardrail_mock' });
    restorer.on('error', () => undefined);
    await restorer.connect();
    try {
      await restorer.query('BEGIN');
      await restorer.query("SELECT pg_advisory_xact_lock(hashtextextended('cardrail-mock:cardrail_mock', 0))");
      for (const table of TABLES) await restorer.query(`CREATE TEMP TABLE saved_${table} AS SELECT * FROM ${table}`);
      await restorer.query(`TRUNCATE ${TABLES.join(', ')}`);
      for (const table of [...TABLES].reverse()) await restorer.query(`INSERT INTO ${table} SELECT * FROM saved_${table}`);
      await restorer.query('UPDATE server SET generation = generation + 1');

      const reading = fetch(`${server.control?.url}/snapshot`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      // The read is under way and waits on a lock the restore holds.
      await until(
        async () => {
          const waiting = await restorer.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'cardrail-mock' AND wait_event_type = 'Lock'",
          );
          return (waiting.rows[0] as { n: number }).n > 0;
        },
        'the snapshot read to wait on the restore',
        WAITS.run,
      );
      await restorer.query('COMMIT');

      const snapshot = await reading;
      expect(snapshot.status).toBe(200);
      const body = (await snapshot.json()) as { tenants: { collections: Record<string, [number, { email?: string }][]> }[] };
      const emails = body.tenants.flatMap((tenant) => (tenant.collections.customers ?? []).map(([, record]) => record.email));
      expect(emails).toEqual(['kept@example.com']);
    } finally {
      await restorer.query('ROLLBACK').catch(() => undefined);
      await restorer.end();
    }
  });
});

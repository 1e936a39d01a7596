import { sql } from './databases.js';

/** The database's name in a URL of freshDatabase. */
function nameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/**
 * Makes the next commit of any organization in the mock's schema lose its connection: a trigger on the organizations
 * row every commit writes ends its own session (`pg_terminate_backend(pg_backend_pid())`, as an administrator or a
 * restart would: 57P01), once; later commits pass (the count is a sequence, which a rollback does not undo).
 */
export async function terminateNextCommit(url: string): Promise<void> {
  const database = nameOf(url);
  await sql('CREATE SEQUENCE IF NOT EXISTS public.cardrail_commit_faults', [], database);
  await sql("SELECT setval('public.cardrail_commit_faults', 1, false)", [], database);
  await sql(
    `CREATE OR REPLACE FUNCTION public.cardrail_terminate_commit() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF nextval('public.cardrail_commit_faults') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
       RETURN NEW;
     END $$`,
    [],
    database,
  );
  await sql(
    `CREATE OR REPLACE TRIGGER cardrail_terminate_commit AFTER INSERT OR UPDATE ON cardrail_mock.organizations
     FOR EACH ROW EXECUTE FUNCTION public.cardrail_terminate_commit()`,
    [],
    database,
  );
}

/** Whether the commit fault of terminateNextCommit has fired. */
export async function commitFaultFired(url: string): Promise<boolean> {
  const [row] = await sql<{ last_value: string; is_called: boolean }>(
    'SELECT last_value, is_called FROM public.cardrail_commit_faults',
    [],
    nameOf(url),
  );
  return row?.is_called === true;
}

/**
 * The database goes away for the mock: new connections to it are refused ("not currently accepting connections") and
 * every session of it is ended. `back()` lets connections in again.
 */
export async function takeDatabaseAway(url: string): Promise<{ back(): Promise<void> }> {
  const database = nameOf(url);
  await sql(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
  await sql('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  return {
    back: async () => {
      await sql(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
    },
  };
}

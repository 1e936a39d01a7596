import type { TestProject } from 'vitest/node';
import { startPostgres, sweepStale } from '../../../../scripts/lib/postgres-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser's URL of the server the suites share (their databases are made on it). */
    postgresUrl: string;
    /** True when the tests started the server (and may copy its data folder for a server of their own). */
    postgresOwned: boolean;
  }
}

/**
 * One PostgreSQL server for the whole run (each test file makes a database of its own on it), stopped after the run,
 * also when a test failed; a run killed outright leaves a folder that the next run's sweep removes. With
 * CARDRAIL_TEST_DATABASE_URL the suites use that server instead (a CI service, a developer's own).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.CARDRAIL_TEST_DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    project.provide('postgresOwned', false);
    return async () => undefined;
  }
  sweepStale();
  const server = await startPostgres();
  project.provide('postgresUrl', server.url);
  project.provide('postgresOwned', true);
  const stop = () => void server.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return async () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await server.close();
  };
}

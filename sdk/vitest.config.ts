import { defineConfig } from 'vitest/config';
import { mswAlias } from '../scripts/vitest-msw.mjs';

export default defineConfig({
  // msw 3, or msw 2 in the Node 20 lane (CARDRAIL_MSW_MAJOR=2).
  resolve: { alias: mswAlias() },
  test: {
    include: ['test/**/*.test.ts'],
    // Each file must leave the worker as it found it: npm test runs the files in one shared worker (--isolate=false).
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    // Type tests (*.test-d.ts) run through tsc: a wrong field or event type must fail to compile.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    restoreMocks: true,
    // A hang guard, not a speed check: npm test runs this suite beside others on two cores (the default is 5 s).
    testTimeout: 60_000,
  },
});

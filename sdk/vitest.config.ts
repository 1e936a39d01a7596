import { defineConfig } from 'vitest/config';

export default defineConfig({
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

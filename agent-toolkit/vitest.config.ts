import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (*.test-d.ts) run through tsc: the adapters' output must fit the frameworks' own types.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
    // Each file starts its own mock server (and some a child process).
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

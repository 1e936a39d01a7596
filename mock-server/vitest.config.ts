import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests (*.test-d.ts) run through tsc: a misspelt operationId, field or event type must fail to compile.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    // Each file starts its own servers; isolation keeps MSW's global fetch patch per file.
    pool: 'forks',
    testTimeout: 20_000,
  },
});

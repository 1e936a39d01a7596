import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own servers; isolation keeps MSW's global fetch patch per file.
    pool: 'forks',
    testTimeout: 20_000,
  },
});

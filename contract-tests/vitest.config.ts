import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file must leave the worker as it found it: npm test runs the files in one shared worker (--isolate=false).
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    globalSetup: ['./test/support/global-setup.ts'],
    // Prism needs about 2 s to start and each scenario run drives a whole organization through the API.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: each worker may hold a Prism process (about 240 MB) besides the mock.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});

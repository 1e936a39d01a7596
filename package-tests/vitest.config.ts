import { defineConfig } from 'vitest/config';
import { WAITS } from '../scripts/lib/test-waits.mjs';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Packs the published packages and installs their tarballs into one temporary project, once for every file.
    globalSetup: ['support/global-setup.ts'],
    // Each check starts a compiler, a test runner or the CLI in that project.
    // Sized for a loaded two-core machine (scripts/lib/test-waits.mjs).
    testTimeout: WAITS.test,
    // The tests only start processes: threads end with the run, where forked workers were slow to terminate.
    pool: 'threads',
    hookTimeout: WAITS.test,
  },
});

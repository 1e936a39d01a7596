import { defineConfig } from 'vitest/config';
import { WAITS } from '../scripts/lib/test-waits.mjs';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file drives other processes (a browser, Bun, Deno, workerd) and mostly waits on them, so the files run
    // side by side even on two cores.
    pool: 'forks',
    maxWorkers: 4,
    // Generous: a loaded two-core machine unpacks Chromium and starts runtimes slowly. Nothing here asserts a time.
    testTimeout: WAITS.test,
    hookTimeout: WAITS.test,
  },
});

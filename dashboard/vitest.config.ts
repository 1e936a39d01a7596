import { defineConfig } from 'vitest/config';
import { WAITS } from '../scripts/lib/test-waits.mjs';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Generous, for a loaded two-core machine that unpacks Chromium on its first launch; no test asserts a time, and
    // every wait inside a test ends as soon as the page shows what it waits for.
    testTimeout: WAITS.test,
    hookTimeout: WAITS.test,
  },
});

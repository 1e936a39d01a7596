import { defineConfig } from 'vitest/config';
import { approvalCardPlugin } from './scripts/approval-card.mjs';

// The MCP conformance suite and the MCP Inspector's CLI against the built `cardrail-mcp` (`npm run test:conformance`;
// a task of its own in npm test). Apart from the main suite: the conformance suite needs Node 22 or later, and the
// main suite also runs on Node 20.
export default defineConfig({
  // A test that imports the server's source gets the approval card's HTML as the build does.
  plugins: [approvalCardPlugin()],
  test: {
    include: ['conformance/**/*.test.ts'],
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    pool: 'forks',
    // Hang guards, not speed checks (the suites' own waits come from scripts/lib/test-waits.mjs).
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});

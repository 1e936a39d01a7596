import { defineConfig } from 'vitest/config';
import { aiAlias } from '../scripts/vitest-ai.mjs';
import { approvalCardPlugin } from './scripts/approval-card.mjs';

export default defineConfig({
  // The MCP App approval card's HTML, built from src/mcp/apps/view as the package's build does.
  plugins: [approvalCardPlugin()],
  // ai 7 by default; CARDRAIL_AI_MAJOR=6 (the Node 20 lane) runs the same files with ai 6 (scripts/vitest-ai.mjs).
  resolve: { alias: aiAlias() },
  test: {
    include: ['test/**/*.test.ts'],
    // Each file must leave the worker as it found it: npm test runs the files in one shared worker (--isolate=false).
    setupFiles: ['../scripts/vitest-leak-guard.mjs'],
    // Type tests (*.test-d.ts) run through tsc: the adapters' output must fit the frameworks' own types.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
    // Each file starts its own mock server (and some a child process).
    pool: 'forks',
    // Hang guards, not speed checks: npm test runs this suite beside others on two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

import { defineConfig } from 'vitest/config';
import { mswAlias } from '../../scripts/vitest-msw.mjs';

// msw 3, or msw 2 in the Node 20 lane (CARDRAIL_MSW_MAJOR=2).
export default defineConfig({ resolve: { alias: mswAlias() }, test: { include: ['test/**/*.test.ts'] } });

// Types of test-waits.mjs, for the TypeScript suites and vitest configs that use it.

/** `ms` scaled by CARDRAIL_TEST_WAIT_SCALE. */
export function waitMs(ms: number): number;

/** The limits every browser and process test waits within, in milliseconds. */
export const WAITS: { ui: number; start: number; run: number; test: number };

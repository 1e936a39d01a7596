// How long the browser and process tests wait for what they expect, one place for every suite (the dashboard's,
// runtime-tests, package-tests, the mock's server tests). A wait ends as soon as its condition holds, so a generous
// limit costs nothing on a quiet machine; it is sized for `npm test` on a loaded two-core machine, where three tasks
// share the cores with other work (a dashboard wait of 30 s was once missed there). On a slower machine, scale every
// limit at once: CARDRAIL_TEST_WAIT_SCALE=2 npm test. Types: test-waits.d.mts.

/** The factor every limit is multiplied by (CARDRAIL_TEST_WAIT_SCALE, default 1). */
function scale() {
  const text = process.env.CARDRAIL_TEST_WAIT_SCALE;
  if (text === undefined || text === '') return 1;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`CARDRAIL_TEST_WAIT_SCALE must be a positive number (2 doubles every wait), not "${text}"`);
  }
  return value;
}

/** `ms` scaled by CARDRAIL_TEST_WAIT_SCALE. */
export function waitMs(ms) {
  return Math.round(ms * scale());
}

/**
 * The limits. `ui`: one change a page shows after an action (a heading, a row, a badge); `start`: a process or a
 * browser to start and answer (a CLI listening, Chromium unpacked and launched, a page ready); `run`: a whole program
 * to its end (a compiler, a test runner over several files); `test`: one test or hook, which may wait several times.
 */
export const WAITS = {
  ui: waitMs(60_000),
  start: waitMs(120_000),
  run: waitMs(180_000),
  test: waitMs(300_000),
};

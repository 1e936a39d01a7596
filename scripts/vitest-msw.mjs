// Which MSW major a test run uses. The repository installs both: `msw` is msw 3 (npm's latest, Node 22.12+) and
// `msw2` is msw 2 (npm:msw@2.15.0, the one that runs on Node 20). CARDRAIL_MSW_MAJOR=2 makes a vitest run resolve
// every `msw` and `msw/...` import, in the tests and in the code they load (the mock's sources and the packages'
// dist/, which vitest transforms), to msw 2; runtime-tests/scripts/node-majors.mjs sets it for the Node 20 lane.
// Without it, `msw` stays msw 3.

/** The major in force for this run: 2 or 3. */
export function mswMajor() {
  const wanted = process.env.CARDRAIL_MSW_MAJOR ?? '3';
  if (wanted !== '2' && wanted !== '3') throw new Error(`CARDRAIL_MSW_MAJOR must be 2 or 3, not ${wanted}`);
  return Number(wanted);
}

/** vitest's `resolve.alias` for the MSW major in force (none for msw 3). */
export function mswAlias() {
  return mswMajor() === 2 ? [{ find: /^msw(\/.*)?$/, replacement: 'msw2$1' }] : [];
}

/**
 * `server.listen()` and `worker.start()` options for how MSW treats a request no handler answers, in both majors:
 * msw 3 reads `onUnhandledFrame` and ignores `onUnhandledRequest` (so msw 2's option alone would leave msw 3 on its
 * default, `warn`, which lets the request through); msw 2 reads `onUnhandledRequest`.
 */
export function unhandled(strategy) {
  return { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}

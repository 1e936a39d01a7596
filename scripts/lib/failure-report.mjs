// What `npm test`'s closing summary shows of a failed task. CI shows the end of the run, where this summary stands, and
// a task's own output may have scrolled far above it: the summary has to carry the failure itself (the assertion, the
// expected and received values), not only the task's last lines, which for vitest are its totals.

/** The most lines shown of one failed task. */
const MOST_LINES = 80;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a terminal colour code.
const COLOUR = /\u001b\[[0-9;]*m/g;

/** Where a test runner starts telling its failures: vitest's section, node:test's and jest's first failed test. */
const FAILURES_START = [/⎯+ Failed Tests? \d+ ⎯+/, /^✖ failing tests:/, /^\s*● /, /^\s*FAIL\s/];

/**
 * The lines of a failed task's output that say why it failed, without colour codes: from where its runner begins
 * reporting failures (or its last 15 lines when no runner's marker is found), at most MOST_LINES of them.
 */
export function failureReport(output) {
  const lines = output.replace(COLOUR, '').trimEnd().split('\n');
  let start = -1;
  for (const marker of FAILURES_START) {
    start = lines.findIndex((line) => marker.test(line));
    if (start !== -1) break;
  }
  if (start === -1) return { heading: 'its last lines:', lines: lines.slice(-15) };
  const shown = lines.slice(start, start + MOST_LINES);
  const left = lines.length - start - shown.length;
  return {
    heading: 'its failures:',
    lines: left > 0 ? [...shown, `(${left} more lines in the task's output above)`] : shown,
  };
}

// What npm test's closing summary shows of a failed task (scripts/lib/failure-report.mjs): the runner's failure
// section, received values included, even when the task printed a long tail after it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureReport } from './failure-report.mjs';

const esc = '\u001b';

describe('failureReport', () => {
  test("shows vitest's failed tests from their heading, without colour codes, the received value included", () => {
    const output = [
      ' RUN  v4.1.12 /work',
      ...Array.from({ length: 30 }, (_, i) => ` ✓ test/passing-${i}.test.ts (3 tests)`),
      `${esc}[31m⎯⎯⎯⎯⎯⎯⎯${esc}[39m${esc}[1m${esc}[41m Failed Tests 1 ${esc}[49m${esc}[22m${esc}[31m⎯⎯⎯⎯⎯⎯⎯${esc}[39m`,
      ' FAIL  test/x.test.ts > lists what was kept',
      "AssertionError: expected [] to deeply equal [ 'kept@example.com' ]",
      `${esc}[32m-   "kept@example.com",${esc}[39m`,
      ...Array.from({ length: 20 }, (_, i) => `  line ${i} of the code frame`),
      ' Test Files  1 failed | 6 passed (7)',
    ].join('\n');
    const report = failureReport(output);
    assert.equal(report.heading, 'its failures:');
    assert.match(report.lines[0], /^⎯+ Failed Tests 1 ⎯+$/);
    assert.ok(report.lines.includes("AssertionError: expected [] to deeply equal [ 'kept@example.com' ]"));
    assert.ok(report.lines.includes('-   "kept@example.com",'));
    assert.equal(report.lines.at(-1), ' Test Files  1 failed | 6 passed (7)');
    assert.ok(!report.lines.some((line) => line.includes(esc)));
  });

  test("starts at node:test's list of failing tests", () => {
    const report = failureReport(['✔ passes', '✖ failing tests:', '', 'test at x.test.mjs:3:1', '✖ breaks'].join('\n'));
    assert.deepEqual(report.lines, ['✖ failing tests:', '', 'test at x.test.mjs:3:1', '✖ breaks']);
  });

  test('says how many lines a long failure section has beyond what it shows', () => {
    const output = ['⎯⎯ Failed Tests 2 ⎯⎯', ...Array.from({ length: 200 }, (_, i) => `detail ${i}`)].join('\n');
    const report = failureReport(output);
    assert.equal(report.lines.length, 81);
    assert.equal(report.lines.at(-1), "(121 more lines in the task's output above)");
  });

  test('shows the last 15 lines of a task whose runner says nothing it knows', () => {
    const output = Array.from({ length: 40 }, (_, i) => `step ${i}`).join('\n');
    const report = failureReport(`${output}\n`);
    assert.equal(report.heading, 'its last lines:');
    assert.deepEqual(
      report.lines,
      Array.from({ length: 15 }, (_, i) => `step ${i + 25}`),
    );
  });
});

// The shared wait limits of the browser and process tests (test-waits.mjs): CARDRAIL_TEST_WAIT_SCALE scales every one,
// and a value that is not a positive number is refused, naming the variable. Run with `npm run test:scripts`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

const module = new URL('./test-waits.mjs', import.meta.url).href;
/** WAITS as a fresh process with this environment sees them (the scale is read when the module loads). */
function waitsWith(scale) {
  const env = { ...process.env, CARDRAIL_TEST_WAIT_SCALE: scale };
  const script = `import(${JSON.stringify(module)}).then((m) => console.log(JSON.stringify(m.WAITS)))`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { env, encoding: 'utf8', stdio: 'pipe' }));
}

test('the limits, and CARDRAIL_TEST_WAIT_SCALE multiplying each of them', () => {
  const plain = waitsWith('');
  assert.deepEqual(plain, { ui: 60_000, start: 120_000, run: 180_000, test: 300_000 });
  assert.deepEqual(waitsWith('2.5'), { ui: 150_000, start: 300_000, run: 450_000, test: 750_000 });
});

test('a scale that is not a positive number is refused with what to write', () => {
  for (const scale of ['0', '-1', 'slow']) {
    assert.throws(
      () => waitsWith(scale),
      (error) => String(error.stderr).includes('CARDRAIL_TEST_WAIT_SCALE must be a positive number'),
    );
  }
});

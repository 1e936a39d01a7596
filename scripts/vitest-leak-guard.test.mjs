// The leak guard (scripts/vitest-leak-guard.mjs) fails the test file that leaves the shared worker changed, by name,
// and lets a clean one pass: vitest runs small files in one worker (--isolate=false), as `npm test` runs the suites.
// The files sit in a temporary folder under node_modules/.cache, so that they resolve vitest from this repository.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'leak-guard-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'vitest.config.mjs'),
  `export default { test: { include: ['*.test.mjs'], setupFiles: [${JSON.stringify(join(root, 'scripts', 'vitest-leak-guard.mjs'))}] } };\n`,
);

/** Runs vitest on the given files (name -> body) in one worker, as npm test does; returns its exit code and output. */
function runFiles(files) {
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), `import { afterAll, test, vi } from 'vitest';\n${body}\n`);
  }
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--isolate=false', '--maxWorkers=1', ...Object.keys(files)],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } },
  );
  for (const name of Object.keys(files)) rmSync(join(dir, name));
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('vitest leak guard', () => {
  test('a file that leaves nothing behind passes', () => {
    const { code, output } = runFiles({
      'clean.test.mjs': `
const original = globalThis.fetch;
test('patches and restores', () => { globalThis.fetch = async () => new Response('x'); globalThis.fetch = original; });`,
    });
    assert.equal(code, 0, output);
  });

  test('fails the file that leaves fetch patched, by name, and says how to fix it', () => {
    const { code, output } = runFiles({
      'patches-fetch.test.mjs': `test('patches', () => { globalThis.fetch = async () => new Response('x'); });`,
    });
    assert.notEqual(code, 0);
    assert.match(output, /patches-fetch\.test\.mjs/);
    assert.match(output, /globalThis\.fetch patched \(close the MSW server/);
  });

  test('fails the file that leaves fake timers on or the environment changed', () => {
    const { code, output } = runFiles({
      'timers.test.mjs': `test('fakes', () => { vi.useFakeTimers(); });`,
      'environment.test.mjs': `test('stubs', () => { process.env.CARDRAIL_LEAK_GUARD_TEST = '1'; });`,
    });
    assert.notEqual(code, 0);
    assert.match(output, /fake timers on/);
    assert.match(output, /process\.env changed/);
  });
});

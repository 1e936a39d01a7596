// The mock in a user's test suite: vitest with the MSW set-up of the READMEs, with each msw major on the Node it runs
// on (consumer/msw.test.ts: msw 3 on Node 24 and 22; consumer-msw2/msw.test.ts: msw 2 on Node 20), an msw that
// cannot serve the handlers refused at once, and CommonJS jest (consumer/mock.test.cjs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { consumerDir, consumerMsw2Dir } from '../support/consumer.js';
import { nodeBinary } from '../support/node-majors.js';
import { run } from '../support/run.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

/** vitest of a project, run by the given Node. */
const vitest = (node: string, dir: string, file: string) =>
  run(node, [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', file], { cwd: dir, timeoutMs: WAITS.run });

describe.concurrent('vitest runs the MSW set-up against the mock, and fails an unhandled request', () => {
  it('msw 3 on Node 24', async () => {
    const result = await vitest(process.execPath, consumerDir, 'msw.test.ts');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+3 passed/);
  });

  it('msw 3 on Node 22', async () => {
    const result = await vitest(nodeBinary(22), consumerDir, 'msw.test.ts');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+3 passed/);
  });

  it('msw 2 on Node 20 (installed by npm on Node 20, with vitest 4)', async () => {
    const result = await vitest(nodeBinary(20), consumerMsw2Dir, 'msw.test.ts');
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/Tests\s+3 passed/);
  });
});

it('msw 3 on Node 20, where it cannot intercept, is refused by createHandlers() with what to install', async () => {
  const script = join(consumerDir, 'msw3-on-node20.mjs');
  writeFileSync(
    script,
    `import { createHandlers } from '@cardrail/mock-server/msw';
try {
  createHandlers();
  console.log('created handlers');
} catch (error) {
  console.error(error.message);
  process.exitCode = 3;
}
`,
  );
  const result = await run(nodeBinary(20), [script], { cwd: consumerDir });
  expect(result.stdout).toBe('');
  expect(result.code, result.output).toBe(3);
  expect(result.stderr).toMatch(/msw 3 cannot intercept requests on Node\.js 20\.\d+\.\d+ \(it needs Node\.js 22\.12 or newer\)/);
  expect(result.stderr).toContain('npm install --save-dev msw@^2.15.0');
});

it('jest 30 runs a CommonJS file with msw 3 and the handlers under --experimental-vm-modules, and refuses it without', async () => {
  const jest = (nodeOptions: string) =>
    run('npx', ['--no-install', 'jest', 'msw.jest.test.cjs'], {
      cwd: consumerDir,
      env: { NODE_OPTIONS: nodeOptions },
      timeoutMs: WAITS.run,
    });
  const [flagged, plain] = await Promise.all([jest('--experimental-vm-modules'), jest('')]);
  expect(flagged.code, flagged.output).toBe(0);
  expect(flagged.output).toMatch(/Tests:\s+1 passed, 1 total/);
  expect(plain.code, plain.output).not.toBe(0);
});

it('jest runs a CommonJS test file using the mock', async () => {
  const result = await run('npx', ['--no-install', 'jest', 'mock.test.cjs'], { cwd: consumerDir, timeoutMs: WAITS.run });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/Tests:\s+3 passed, 3 total/);
});

// The mock in a user's test suite: vitest with the MSW set-up of the READMEs, and CommonJS jest
// (consumer/msw.test.ts and consumer/mock.test.cjs).
import { expect, it } from 'vitest';
import { consumerDir } from '../support/consumer.js';
import { run } from '../support/run.js';

it.concurrent('vitest runs the MSW set-up against the mock', async () => {
  const result = await run('npx', ['--no-install', 'vitest', 'run', 'msw.test.ts'], { cwd: consumerDir, timeoutMs: 90_000 });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/Tests\s+2 passed/);
});

it.concurrent('jest runs a CommonJS test file using the mock', async () => {
  const result = await run('npx', ['--no-install', 'jest', 'mock.test.cjs'], { cwd: consumerDir, timeoutMs: 90_000 });
  expect(result.code, result.output).toBe(0);
  expect(result.output).toMatch(/Tests:\s+2 passed, 2 total/);
});

// The testing guide's first test is the file examples/vitest runs in `npm test`, character for character, and stays
// within ten lines: the guide cannot show code that does not run.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

it('shows the first test exactly as examples/vitest runs it, in at most ten lines', () => {
  const guide = read('docs/testing.md');
  const section = guide.slice(guide.indexOf('## The first test'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block).toBe(read('examples/vitest/test/first.test.ts'));
  expect(block?.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(10);
});

it('shows the failure-handling test exactly as examples/vitest runs it, and says the test kit does not retry', () => {
  const guide = read('docs/testing.md');
  const section = guide.slice(guide.indexOf('## Failure handling'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block).toBe(read('examples/vitest/test/failure-handling.test.ts'));
  expect(section.slice(0, section.indexOf('```'))).toContain('maxRetries: 0');
});

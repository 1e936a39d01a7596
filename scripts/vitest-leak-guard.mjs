// A vitest setup file (setupFiles of the SDK's, the mock's, the agent toolkit's and the contract tests' configs): each
// test file must leave the process as it found it. `npm test` runs those suites with their files one after another in
// one shared worker (--isolate=false, scripts/test-all.mjs), where a file that left `fetch` patched (an MSW server or
// interceptor not closed), fake timers on or an environment variable stubbed would change what the next file tests.
// This fails the file that did, by name, instead of some later file, or none.
import { afterAll, vi } from 'vitest';

const fetchBefore = globalThis.fetch;
const environmentBefore = JSON.stringify(process.env);

afterAll(() => {
  const left = [];
  if (globalThis.fetch !== fetchBefore) left.push('globalThis.fetch patched (close the MSW server or interceptor in afterAll)');
  if (vi.isFakeTimers()) left.push('fake timers on (call vi.useRealTimers() in afterEach)');
  if (JSON.stringify(process.env) !== environmentBefore) left.push('process.env changed (vi.unstubAllEnvs(), or restore it)');
  if (left.length > 0) throw new Error(`This test file leaves the worker changed for the next file: ${left.join('; ')}.`);
});

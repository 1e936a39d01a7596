// The SDK and the mock under Deno (the npm package `deno`), resolving the packages from node_modules: the mock
// in-process through `handle` with no permission at all, and its CLI serving HTTP with network access to loopback
// only. Deno resolves the packages' `node` condition, so the synchronous webhook forms work.
import { describe, expect, it } from 'vitest';
import { EXPECTED_OVER_HTTP_STEPS, expectedInProcessSteps, RESPONSE_CHECK_STEP } from '../scenarios/scenario.ts';
import { denoBinary, mockCli, runProgram, scenarioProgram, startMockCli, stepsOf } from '../support/runtimes.ts';

const LOOPBACK_ONLY = '--allow-net=127.0.0.1';

describe('Deno', () => {
  it('runs the SDK against the mock in-process, without any permission, and verifies the webhook it delivers', async () => {
    const deno = denoBinary();
    const version = await runProgram(deno, ['--version']);
    console.log(version.stdout.split('\n')[0]);
    expect(stepsOf(await runProgram(deno, ['run', scenarioProgram, 'in-process', 'available']))).toEqual([
      ...expectedInProcessSteps('available'),
      RESPONSE_CHECK_STEP,
    ]);
  });

  it("serves the API with the mock's CLI (network on loopback only), called over HTTP by the SDK", async () => {
    const deno = denoBinary();
    const cli = await startMockCli(deno, ['run', LOOPBACK_ONLY, mockCli]);
    try {
      expect(stepsOf(await runProgram(deno, ['run', LOOPBACK_ONLY, scenarioProgram, 'over-http', cli.url]))).toEqual(
        EXPECTED_OVER_HTTP_STEPS,
      );
      // Without --allow-read the dashboard cannot be read: its page says which flag to add, not a bare error.
      const dashboard = await fetch(new URL('/', cli.url));
      expect(dashboard.status).toBe(503);
      expect(await dashboard.text()).toContain(
        "Deno does not let the mock read the dashboard's files: start it with --allow-read",
      );
    } finally {
      await cli.stop();
    }
  });
});

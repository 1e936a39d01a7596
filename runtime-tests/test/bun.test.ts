// The SDK and the mock under Bun (the npm package `bun`): the mock in-process through `handle`, and its CLI serving
// HTTP to the SDK. Bun resolves the packages' `node` condition, so the synchronous webhook forms work.
import { describe, expect, it } from 'vitest';
import { EXPECTED_OVER_HTTP_STEPS, expectedInProcessSteps, RESPONSE_CHECK_STEP } from '../scenarios/scenario.ts';
import { bunBinary, mockCli, runProgram, scenarioProgram, startMockCli, stepsOf } from '../support/runtimes.ts';

describe('Bun', () => {
  it('runs the SDK against the mock in-process, and verifies the webhook it delivers, sync forms included', async () => {
    const bun = bunBinary();
    const version = await runProgram(bun, ['--version']);
    console.log(`bun ${version.stdout.trim()}`);
    expect(stepsOf(await runProgram(bun, [scenarioProgram, 'in-process', 'available']))).toEqual([
      ...expectedInProcessSteps('available'),
      RESPONSE_CHECK_STEP,
    ]);
  });

  it("serves the API with the mock's CLI, called over HTTP by the SDK", async () => {
    const bun = bunBinary();
    const cli = await startMockCli(bun, [mockCli]);
    try {
      expect(stepsOf(await runProgram(bun, [scenarioProgram, 'over-http', cli.url]))).toEqual(EXPECTED_OVER_HTTP_STEPS);
    } finally {
      await cli.stop();
    }
  });
});

// The scenario as a program, for runtimes the tests start as a child process (Bun, Deno, other Node versions):
//
//   <runtime> scenarios/run.ts in-process <available|unavailable>   the mock's `handle` in this process, then with
//                                                                   response checks (`validateResponses`)
//   <runtime> scenarios/run.ts over-http <baseUrl>                   the standalone mock at baseUrl
//
// It prints one line, `CARDRAIL_STEPS <json array of the steps that passed>`, and exits 0; a failing step prints its
// error and exits 1. The packages are imported by name: the runtime's own resolution picks their builds.
import { createMockServer } from '@cardrail/mock-server';
import * as sdk from '@cardrail/sdk';
import { inProcessSteps, overHttpSteps, responseCheckSteps } from './scenario.ts';

const args: string[] = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2);
const [mode, argument] = args;

try {
  let steps: string[];
  if (mode === 'in-process' && (argument === 'available' || argument === 'unavailable')) {
    steps = [...(await inProcessSteps(sdk, createMockServer, argument)), ...(await responseCheckSteps(sdk, createMockServer))];
  } else if (mode === 'over-http' && argument !== undefined) {
    steps = await overHttpSteps(sdk, argument);
  } else {
    throw new Error(`usage: run.ts in-process <available|unavailable> | over-http <baseUrl>; got ${args.join(' ')}`);
  }
  console.log(`CARDRAIL_STEPS ${JSON.stringify(steps)}`);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
}

#!/usr/bin/env node
// Runs independent commands at the same time and fails if any fails: `npm test` runs every workspace's suite beside
// the SDK's and the mock's suites on Node 22 and 24 (runtime-tests/scripts/node-majors.mjs), which keeps its output
// until it is done. On two cores the workspace suites leave one mostly idle (vitest runs one test file at a time
// there), so the second command costs little wall time.
//
//   node scripts/run-together.mjs "<command>" "<command>" ...
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-together.mjs "<command>" ...');
  process.exit(2);
}
const started = performance.now();
const results = await Promise.all(
  commands.map(
    (command) =>
      new Promise((resolve) => {
        const child = spawn(command, { shell: true, stdio: 'inherit' });
        child.on('close', (code, signal) =>
          resolve({ command, code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }),
        );
      }),
  ),
);
for (const { command, code, seconds } of results) {
  console.log(`run-together: \`${command}\` ${code === 0 ? 'passed' : `FAILED (exit ${code})`} after ${seconds.toFixed(1)} s`);
}
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);

#!/usr/bin/env node
import { runCli } from '../cli/serve-command.js';
import { runStateCommand } from '../cli/state-command.js';

const fail = (error: unknown): void => {
  process.stderr.write(`cardrail-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};
const args = process.argv.slice(2);

if (args[0] === 'state') {
  // The exit code is set, not forced: an export written to standard output is flushed before the process ends.
  runStateCommand(args.slice(1), {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  }, fail);
} else {
  runCli(args).then(async (started) => {
    if (!started) return;
    await started.stopped;
    process.exit(0);
  }, fail);
}

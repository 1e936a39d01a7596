#!/usr/bin/env node
import { runCli } from '../cli.js';

runCli(process.argv.slice(2)).then(
  async (started) => {
    if (!started) return;
    await started.stopped;
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`cardrail-mock: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

#!/usr/bin/env node
// `npm run mock`: the mock server's CLI from its TypeScript sources under tsx, so nothing is built first (tsx keeps a
// cache of what it transformed, so the second start is faster still). The SDK resolves to its sources too
// (scripts/tsconfig.sources.json). Arguments after `--` go to the CLI: `npm run mock -- --port 4011 --log`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './lib/bundle.mjs';

const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(repoRoot, 'mock-server/src/bin/cardrail-mock.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: join(repoRoot, 'scripts/tsconfig.sources.json') },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

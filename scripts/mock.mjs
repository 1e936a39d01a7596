#!/usr/bin/env node
// `npm run mock`: the mock server's CLI from its TypeScript sources under tsx, so nothing is built first (tsx keeps a
// cache of what it transformed, so the second start is faster still). The SDK resolves to its sources too
// (scripts/tsconfig.sources.json). The dashboard it serves at its root is built first (esbuild, well under a second),
// from the SDK's sources too, into the place the server reads it from (mock-server/dist/dashboard).
// Arguments after `--` go to the CLI: `npm run mock -- --port 4011 --log`.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './lib/bundle.mjs';

if (!process.argv.includes('--no-dashboard')) {
  execFileSync(
    process.execPath,
    [
      join(repoRoot, 'dashboard/scripts/build.mjs'),
      '--sdk-from-sources',
      '--outdir',
      join(repoRoot, 'mock-server/dist/dashboard'),
    ],
    { stdio: 'inherit' },
  );
}

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

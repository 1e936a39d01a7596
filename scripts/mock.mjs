#!/usr/bin/env node
// `npm run mock`: builds the SDK and the mock server when needed, then starts the mock server's CLI on
// 127.0.0.1:4010. Extra arguments after `--` go to the CLI (`npm run mock -- --port 4011 --log`).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/bundle.mjs';

const mockPackage = JSON.parse(readFileSync(join(repoRoot, 'mock-server/package.json'), 'utf8'));
const binPath = mockPackage.bin && Object.values(mockPackage.bin)[0];
if (!binPath || !mockPackage.scripts?.build) {
  console.error('The mock server is not built yet: @cardrail/mock-server has no CLI entry point.');
  process.exit(1);
}
for (const workspace of ['@cardrail/sdk', '@cardrail/mock-server']) {
  const built = spawnSync('npm', ['run', 'build', '--silent', `--workspace=${workspace}`], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const entry = join(repoRoot, 'mock-server', binPath);
if (!existsSync(entry)) {
  console.error(`The mock server build did not produce ${entry}.`);
  process.exit(1);
}
const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// The other Node majors the package tests use (Node 20 and 22, beside the project's 24): the binaries that
// runtime-tests/scripts/node-majors.mjs installs from npm into runtime-tests/node-majors (npm test does it first).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..');

/** The `node` of a major, installed on first use (a no-op when it is there). */
export function nodeBinary(major: 20 | 22): string {
  const binary = join(repoRoot, 'runtime-tests', 'node-majors', 'node_modules', `node${major}`, 'bin', 'node');
  if (!existsSync(binary)) {
    const script = join(repoRoot, 'runtime-tests', 'scripts', 'node-majors.mjs');
    const result = spawnSync(process.execPath, [script, '--install'], { stdio: 'inherit' });
    if (result.status !== 0 || !existsSync(binary)) {
      throw new Error(`Node ${major} is missing at ${binary}: run \`node runtime-tests/scripts/node-majors.mjs --install\``);
    }
  }
  return binary;
}

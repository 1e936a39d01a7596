// The benchmarks measure the built packages. A missing build is made first (SDK before the mock, which uses it);
// build output goes to stderr so that stdout stays the results table.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mockCli, mockMswAdapter, mockNodeAdapter, repoRoot, sdkEntry } from './paths.mjs';

const WORKSPACES = [
  { name: '@cardrail/sdk', outputs: [sdkEntry, join(repoRoot, 'sdk', 'dist', 'webhooks.mjs')] },
  { name: '@cardrail/mock-server', outputs: [mockCli, mockMswAdapter, mockNodeAdapter] },
];

export function ensureBuilt(log) {
  for (const workspace of WORKSPACES) {
    const missing = workspace.outputs.filter((file) => !existsSync(file));
    if (missing.length === 0) continue;
    log(`${workspace.name}: ${missing.map((file) => file.slice(repoRoot.length + 1)).join(', ')} missing, building`);
    const built = spawnSync('npm', ['run', 'build', `--workspace=${workspace.name}`], { cwd: repoRoot, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) throw new Error(`npm run build --workspace=${workspace.name} failed (exit ${built.status})`);
  }
}

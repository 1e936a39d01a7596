// Packs every published package (as `npm publish` would, from the built dist/: the root `npm test` builds first)
// and installs the tarballs into a new temporary project together with what a user adds from the registry
// (consumer/package.json). Once per run, for every test file; nothing is kept between runs. Under the root `npm test`
// the packages are already packed, right after their build (scripts/pack-workspace.mjs, into CARDRAIL_PACKS_DIR):
// those tarballs are installed instead of packing again.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { packedTarball, packWorkspace } from '../../scripts/lib/packs.mjs';

const execFileAsync = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
/** The published workspaces: every one not marked private. */
const PUBLISHED = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).workspaces as string[]).filter(
  (workspace) => !JSON.parse(readFileSync(join(repoRoot, workspace, 'package.json'), 'utf8')).private,
);
const INSTALL_TIME_LIMIT_MS = 240_000;

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'cardrail-package-tests-'));
  const tarballs = join(root, 'tarballs');
  const consumerDir = join(root, 'consumer');
  mkdirSync(tarballs);
  cpSync(join(here, '..', 'consumer'), consumerDir, { recursive: true });

  const packedByNpmTest = process.env.CARDRAIL_PACKS_DIR !== undefined;
  // Under npm test a missing tarball fails the run: packing again here would test something npm test did not check.
  const packed = PUBLISHED.map((workspace) => packedTarball(workspace) ?? packWorkspace(join(repoRoot, workspace), tarballs));

  const manifestPath = join(consumerDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  for (const { name, path } of packed) manifest.dependencies[name] = `file:${path}`;
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));

  const started = Date.now();
  try {
    await execFileAsync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: consumerDir,
      timeout: INSTALL_TIME_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
  } catch (error) {
    const { stderr, killed } = error as { stderr?: string; killed?: boolean };
    remove(root);
    throw new Error(
      killed
        ? `npm install of the tarballs did not finish within ${INSTALL_TIME_LIMIT_MS / 1000} s`
        : `npm install of the tarballs failed:\n${stderr}`,
    );
  }
  console.log(
    `package-tests: ${packedByNpmTest ? 'took the tarballs npm test packed of' : 'packed'} ${packed.length} packages and installed them in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  project.provide('consumerDir', consumerDir);
  project.provide('packed', packed);
  return () => remove(root);
}

/** `rm -rf` where there is one: about 6 times faster than rmSync on the 15,000 files of the install. */
function remove(root: string): void {
  if (process.platform === 'win32' || spawnSync('rm', ['-rf', root]).status !== 0) rmSync(root, { recursive: true, force: true });
}

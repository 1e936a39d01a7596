// Packs every published package (as `npm publish` would, from the built dist/: the root `npm test` builds first)
// and installs the tarballs into a new temporary project together with what a user adds from the registry
// (consumer/package.json). Once per run, for every test file; nothing is kept between runs. Under the root `npm test`
// the packages are already packed, right after their build (scripts/pack-workspace.mjs, into CARDRAIL_PACKS_DIR):
// those tarballs are installed instead of packing again.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import type { PackedPackage } from './consumer.js';

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

  const packedByNpmTest = process.env.CARDRAIL_PACKS_DIR;
  const packed = packedByNpmTest
    ? PUBLISHED.map((workspace) => fromPacksDir(packedByNpmTest, workspace))
    : await Promise.all(
        PUBLISHED.map(async (workspace) => {
          // --ignore-scripts: prepack would rebuild what the build has just built.
          const { stdout } = await execFileAsync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs], {
            cwd: join(repoRoot, workspace),
          });
          const [result] = JSON.parse(stdout) as PackedPackage[];
          if (!result) throw new Error(`npm pack gave nothing for ${workspace}`);
          return { ...result, tarball: join(tarballs, result.filename) };
        }),
      );

  const manifestPath = join(consumerDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  for (const { name, tarball } of packed) manifest.dependencies[name] = `file:${tarball}`;
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

/**
 * A tarball scripts/pack-workspace.mjs wrote (its `npm pack --json` summary beside it), with its path. A missing one
 * fails the run: packing again here would test something npm test did not check.
 */
function fromPacksDir(dir: string, workspace: string): PackedPackage & { tarball: string } {
  const summary = join(dir, `${workspace.replaceAll('/', '__')}.json`);
  if (!existsSync(summary)) throw new Error(`CARDRAIL_PACKS_DIR=${dir} has no tarball of ${workspace} (${summary} is missing)`);
  const result = JSON.parse(readFileSync(summary, 'utf8')) as PackedPackage;
  return { ...result, tarball: join(dir, result.filename) };
}

/** `rm -rf` where there is one: about 6 times faster than rmSync on the 15,000 files of the install. */
function remove(root: string): void {
  if (process.platform === 'win32' || spawnSync('rm', ['-rf', root]).status !== 0) rmSync(root, { recursive: true, force: true });
}

// Packs every published package (as `npm publish` would, from the built dist/: the root `npm test` builds first)
// and installs the tarballs into two new temporary projects together with what a user adds from the registry: one
// with what npm installs today on Node 22 and 24 (consumer/package.json: msw 3, TypeScript 7 and 5.9, vitest 5,
// jest 30, ai 7), installed by npm on this Node (the project's 24), and one of a user on Node 20 with msw 2
// (consumer-msw2/package.json), installed by npm running on Node 20 (from runtime-tests/node-majors). Both at once,
// once per run, for every test file; nothing is kept between runs. Under the root `npm test` the packages are already
// packed, right after their build (scripts/pack-workspace.mjs, into CARDRAIL_PACKS_DIR): those tarballs are
// installed instead of packing again.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { type PackedTarball, packedTarball, packWorkspace } from '../../scripts/lib/packs.mjs';
import { nodeBinary } from './node-majors.js';
import { waitMs } from '../../scripts/lib/test-waits.mjs';

const execFileAsync = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
/** The published workspaces: every one not marked private. */
const PUBLISHED = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).workspaces as string[]).filter(
  (workspace) => !JSON.parse(readFileSync(join(repoRoot, workspace, 'package.json'), 'utf8')).private,
);
const INSTALL_TIME_LIMIT_MS = waitMs(240_000);

export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'cardrail-package-tests-'));
  const tarballs = join(root, 'tarballs');
  mkdirSync(tarballs);

  const packedByNpmTest = process.env.CARDRAIL_PACKS_DIR !== undefined;
  // Under npm test a missing tarball fails the run: packing again here would test something npm test did not check.
  const packed = PUBLISHED.map((workspace) => packedTarball(workspace) ?? packWorkspace(join(repoRoot, workspace), tarballs));
  const node20 = nodeBinary(20);

  const started = Date.now();
  let consumerDir: string;
  let consumerMsw2Dir: string;
  try {
    [consumerDir, consumerMsw2Dir] = await Promise.all([
      install(root, 'consumer', packed),
      // The MSW projects use the SDK and the mock only; npm itself runs on Node 20, as on such a user's machine.
      install(
        root,
        'consumer-msw2',
        packed.filter(({ name }) => name !== '@cardrail/agent-toolkit'),
        { ...process.env, PATH: [dirname(node20), process.env.PATH].join(delimiter) },
      ),
    ]);
  } catch (error) {
    remove(root);
    throw error;
  }
  console.log(
    `package-tests: ${packedByNpmTest ? 'took the tarballs npm test packed of' : 'packed'} ${packed.length} packages and installed them into two projects in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  project.provide('consumerDir', consumerDir);
  project.provide('consumerMsw2Dir', consumerMsw2Dir);
  project.provide('packed', packed);
  return () => remove(root);
}

/** Copies the project `name` (a folder beside this one's parent) into `root`, adds the tarballs and installs it. */
async function install(root: string, name: string, packed: PackedTarball[], env?: NodeJS.ProcessEnv): Promise<string> {
  const dir = join(root, name);
  cpSync(join(here, '..', name), dir, { recursive: true });
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.dependencies = { ...manifest.dependencies };
  for (const { name: pkg, path } of packed) manifest.dependencies[pkg] = `file:${path}`;
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  try {
    await execFileAsync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: dir,
      env,
      timeout: INSTALL_TIME_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
  } catch (error) {
    const { stderr, killed } = error as { stderr?: string; killed?: boolean };
    throw new Error(
      killed
        ? `npm install of the tarballs into ${name} did not finish within ${INSTALL_TIME_LIMIT_MS / 1000} s`
        : `npm install of the tarballs into ${name} failed:\n${stderr}`,
    );
  }
  return dir;
}

/** `rm -rf` where there is one: about 6 times faster than rmSync on the 15,000 files of the install. */
function remove(root: string): void {
  if (process.platform === 'win32' || spawnSync('rm', ['-rf', root]).status !== 0) rmSync(root, { recursive: true, force: true });
}

#!/usr/bin/env node
// `npm run mock`: the mock server's CLI from its TypeScript sources, without a package build. esbuild bundles the CLI
// (the mock's sources, the SDK's sources through scripts/tsconfig.sources.json, the bundled spec) into one file under
// node_modules/.cache/cardrail-mock, in about 0.3 s, and only when a file it was built from changed since; Node then
// loads one file instead of transforming 130 modules on every start (tsx measured 1.4-2.9 s to the first answer,
// this 0.5-1 s: node scripts/measure-mock-start.mjs). The dashboard the server shows at its root is built the same
// way, when stale, next to the bundle (where the server looks for it). Arguments after `--` go to the CLI:
// `npm run mock -- --port 4011 --log`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from './lib/bundle.mjs';
import { runOnProjectNode } from './lib/project-node.mjs';

// A fresh clone on an older Node (ours have 20) still starts: the mock runs on the project's Node, from .node/.
if (await runOnProjectNode(fileURLToPath(import.meta.url), 'cardrail-mock')) process.exit();

const cacheDir = join(repoRoot, 'node_modules/.cache/cardrail-mock');
const bundlePath = join(cacheDir, 'cli.mjs');
const manifestPath = join(cacheDir, 'inputs.json');
/** Files that shape the bundle without being part of it. */
const buildInputs = ['scripts/mock.mjs', 'scripts/tsconfig.sources.json', 'tsconfig.json', 'mock-server/package.json'];
const manifest = JSON.parse(readFileSync(join(repoRoot, 'mock-server/package.json'), 'utf8'));
const runtimeDependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter(
  (name) => !name.startsWith('@cardrail/'),
);

const dashboardDir = join(cacheDir, 'dashboard');
const dashboardStamp = join(cacheDir, 'dashboard.json');
/** What the dashboard's page is built from: its sources and build script, and the SDK's sources it bundles. */
const dashboardInputs = ['dashboard/src', 'dashboard/scripts/build.mjs', 'sdk/src'];

/** The newest modification time among the files under `path` (a file or a directory). */
function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** Builds the dashboard's page (esbuild, the SDK from its sources) unless nothing it is built from changed. */
function buildDashboardIfStale() {
  try {
    const { startedAt } = JSON.parse(readFileSync(dashboardStamp, 'utf8'));
    statSync(join(dashboardDir, 'index.html'));
    if (dashboardInputs.every((path) => newestMtime(join(repoRoot, path)) < startedAt)) return;
  } catch {
    // Not built yet.
  }
  const startedAt = Date.now();
  const script = join(repoRoot, 'dashboard/scripts/build.mjs');
  execFileSync(process.execPath, [script, '--sdk-from-sources', '--outdir', dashboardDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(dashboardStamp, JSON.stringify({ startedAt }));
  process.stderr.write(`cardrail-mock: built the dashboard in ${((Date.now() - startedAt) / 1000).toFixed(2)} s\n`);
}

/** Whether every file the bundle was built from is unchanged since the build started. */
function isFresh() {
  try {
    const { startedAt, inputs } = JSON.parse(readFileSync(manifestPath, 'utf8'));
    statSync(bundlePath);
    return inputs.every((file) => statSync(join(repoRoot, file)).mtimeMs < startedAt);
  } catch {
    return false; // no bundle yet, or an input was deleted
  }
}

async function bundle() {
  const startedAt = Date.now();
  // Loaded only when there is something to bundle: a fresh start does not pay for it.
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['mock-server/src/bin/cardrail-mock.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    tsconfig: 'scripts/tsconfig.sources.json',
    // ES modules where a package has both (jsonc-parser's `main` is UMD, which does not bundle).
    mainFields: ['module', 'main'],
    write: false,
    outfile: bundlePath,
    metafile: true,
    logLevel: 'error',
    // The mock's runtime dependencies load from node_modules, as they do for the published package; everything
    // else (the workspaces, and what the package build inlines) is bundled.
    external: [...runtimeDependencies, 'node:*'],
  });
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so a second `npm run mock` starting meanwhile never loads half a file.
  const [output] = result.outputFiles;
  writeFileSync(`${bundlePath}.${process.pid}`, output.contents);
  renameSync(`${bundlePath}.${process.pid}`, bundlePath);
  const inputs = [...Object.keys(result.metafile.inputs), ...buildInputs];
  writeFileSync(`${manifestPath}.${process.pid}`, JSON.stringify({ startedAt, inputs }));
  renameSync(`${manifestPath}.${process.pid}`, manifestPath);
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(2);
  process.stderr.write(
    `cardrail-mock: bundled ${inputs.length} source files in ${seconds} s (${relative(repoRoot, bundlePath)})\n`,
  );
}

if (!isFresh()) await bundle();
if (!process.argv.includes('--no-dashboard')) buildDashboardIfStale();
// The CLI reads process.argv.slice(2), which are this script's arguments: it runs in this process.
await import(pathToFileURL(bundlePath).href);

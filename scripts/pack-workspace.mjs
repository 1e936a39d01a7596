#!/usr/bin/env node
// Packs one published workspace, as `npm publish` would from its built dist/, into the folder that CARDRAIL_PACKS_DIR
// names, and writes what `npm pack --json` said about it next to the tarball (<workspace>.json: name, version,
// filename, size, files). `npm test` (scripts/test-all.mjs) packs each package once, right after its build; the package
// checks (attw) and package-tests then use that tarball instead of packing again. Lifecycle scripts are skipped:
// prepack would rebuild what the build has just built.
//
//   CARDRAIL_PACKS_DIR=<dir> node scripts/pack-workspace.mjs <workspace>
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packManifestPath } from './lib/packs.mjs';

const [workspace] = process.argv.slice(2);
const destination = process.env.CARDRAIL_PACKS_DIR;
if (!workspace || !destination) {
  console.error('usage: CARDRAIL_PACKS_DIR=<dir> node scripts/pack-workspace.mjs <workspace>');
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stdout = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
  cwd: join(root, workspace),
  encoding: 'utf8',
});
const [packed] = JSON.parse(stdout);
if (!packed) throw new Error(`npm pack gave nothing for ${workspace}`);
const { name, version, filename, size, files } = packed;
writeFileSync(packManifestPath(destination, workspace), JSON.stringify({ name, version, filename, size, files }, null, 2));
console.log(`${workspace}: ${filename}, ${files.length} files, ${packed.size} bytes packed`);

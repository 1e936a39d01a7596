#!/usr/bin/env node
// Packs one published workspace, as `npm publish` would from its built dist/, into the folder that CARDRAIL_PACKS_DIR
// names, with what `npm pack --json` said about it next to the tarball (scripts/lib/packs.mjs). `npm test`
// (scripts/test-all.mjs) runs it once per package, right after its build.
//
//   CARDRAIL_PACKS_DIR=<dir> node scripts/pack-workspace.mjs <workspace>
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packIntoPacksDir } from './lib/packs.mjs';

const [workspace] = process.argv.slice(2);
const destination = process.env.CARDRAIL_PACKS_DIR;
if (!workspace || !destination) {
  console.error('usage: CARDRAIL_PACKS_DIR=<dir> node scripts/pack-workspace.mjs <workspace>');
  process.exit(2);
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { filename, files, size } = packIntoPacksDir(root, workspace, destination);
console.log(`${workspace}: ${filename}, ${files.length} files, ${size} bytes packed`);

#!/usr/bin/env node
// A published workspace's package check (its `check:package` script, run by `npm run build`):
//   1. publint --strict on the package;
//   2. the tarball's file list: every `bin` target, every file an export points at and every entry of `files` that
//      names a file must be in it, and nothing outside `files` (npm always adds package.json);
//   3. attw on the tarball;
//   4. `prepack` (the build `npm pack` and `npm publish` run) writes its logs to stderr, so that `npm pack --json`
//      prints nothing but its JSON on stdout;
//   5. every JavaScript file in the tarball is ASCII (scripts/lib/ascii-output.mjs says why and writes it so).
// Under `npm test` the tarball is the one scripts/pack-workspace.mjs made right after the build (CARDRAIL_PACKS_DIR);
// otherwise the package is packed into a temporary folder here, without lifecycle scripts (prepack builds, and this
// runs right after a build), as `attw --pack` would.
//
//   node ../scripts/check-package.mjs        (from the workspace's folder)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedTarball, packWorkspace } from './lib/packs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packageRoot = process.cwd();
const workspace = relative(root, packageRoot);
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (command, args) => execFileSync(command, args, { cwd: packageRoot, stdio: 'inherit' });

run(bin('publint'), ['--strict']);
checkPrepackQuiet(JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')));

const byNpmTest = packedTarball(workspace);
const destination = byNpmTest ? undefined : mkdtempSync(join(tmpdir(), 'cardrail-check-package-'));
try {
  const packed = byNpmTest ?? packWorkspace(packageRoot, destination);
  const files = packed.files.map((file) => file.path);
  checkFileList(JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')), files);
  checkAsciiJavaScript(files);
  console.log(
    `${packed.filename}: ${packed.files.length} files, ${packed.size} bytes${byNpmTest ? ' (packed by npm test)' : ''}`,
  );
  run(bin('attw'), [packed.path]);
} finally {
  if (destination) rmSync(destination, { recursive: true, force: true });
}

/** Fails with both lists when the tarball lacks a file the manifest promises or holds one `files` does not name. */
function checkFileList(manifest, files) {
  const strip = (path) => path.replace(/^\.\//, '');
  const promised = [
    ...Object.values(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {})),
    ...exportTargets(manifest.exports),
    ...(manifest.files ?? []).filter((entry) => /\.[a-z]+$/i.test(entry)),
  ].map(strip);
  const missing = [...new Set(promised)].filter((path) => !files.includes(path));
  const allowed = (path) =>
    path === 'package.json' ||
    (manifest.files ?? []).some((entry) => path === strip(entry) || path.startsWith(`${strip(entry)}/`));
  const stray = files.filter((path) => !allowed(path));
  if (missing.length > 0 || stray.length > 0) {
    console.error(
      `${manifest.name}: the tarball is wrong. Missing (named by bin, exports or files): ${JSON.stringify(missing)}. ` +
        `Not named by "files": ${JSON.stringify(stray)}. Build first (npm run build:dist), or fix package.json.`,
    );
    process.exit(1);
  }
}

/** Fails naming each JavaScript file with a character past U+007F, and the first such line. */
function checkAsciiJavaScript(files) {
  const offenders = files
    .filter((path) => /\.(mjs|cjs|js)$/.test(path))
    .flatMap((path) => {
      const lines = readFileSync(join(packageRoot, path), 'utf8').split('\n');
      const index = lines.findIndex((line) => /[\u0080-\uffff]/.test(line));
      return index === -1 ? [] : [`${path}:${index + 1}: ${lines[index].trim().slice(0, 120)}`];
    });
  if (offenders.length > 0) {
    console.error(
      `JavaScript with non-ASCII text, which Node then loads as two-byte text, slower (the build's asciiOutput plugin, ` +
        `scripts/lib/ascii-output.mjs, escapes it: is it in this package's tsdown config?):\n${offenders.join('\n')}`,
    );
    process.exit(1);
  }
}

/** Every file path in an `exports` value, through conditions and subpaths (patterns with `*` are left out). */
function exportTargets(value) {
  if (typeof value === 'string') return value.includes('*') ? [] : [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(exportTargets);
}

/**
 * Fails unless every command of `prepack` sends its output to stderr (`1>&2`, which sh and cmd.exe both read): its
 * stdout would land in front of `npm pack --json`'s JSON and make it unparsable.
 */
function checkPrepackQuiet(manifest) {
  const prepack = manifest.scripts?.prepack;
  if (prepack === undefined) return;
  const loud = prepack.split('&&').filter((command) => !/\s1>&2\s*$/.test(command));
  if (loud.length > 0) {
    console.error(
      `${manifest.name}: prepack writes to stdout, which breaks \`npm pack --json\`: end each command with 1>&2 (${JSON.stringify(loud)}).`,
    );
    process.exit(1);
  }
}

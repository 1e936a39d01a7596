#!/usr/bin/env node
// The packed-tarball check: publint --strict on the package, then `npm pack` without lifecycle scripts (prepack
// builds, and this runs right after a build) into a temporary folder, the tarball's file list checked, and attw on
// that tarball.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(packageRoot, '..', 'node_modules', '.bin', name);
const run = (command, args) => execFileSync(command, args, { cwd: packageRoot, stdio: 'inherit' });

run(bin('publint'), ['--strict']);
const destination = mkdtempSync(join(tmpdir(), 'cardrail-agent-toolkit-pack-'));
try {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
      cwd: packageRoot,
      encoding: 'utf8',
    }),
  );
  const files = packed.files.map((file) => file.path);
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  const expected = [
    'package.json',
    'README.md',
    'examples/mock-fixtures.json',
    ...Object.values(manifest.bin).map((path) => path.replace(/^\.\//, '')),
  ];
  const missing = expected.filter((path) => !files.includes(path));
  const stray = files.filter(
    (path) => !['package.json', 'README.md', 'LICENSE'].includes(path) && !/^(dist|examples)\//.test(path),
  );
  if (missing.length > 0 || stray.length > 0) {
    console.error(`The tarball is wrong: missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(stray)}`);
    process.exit(1);
  }
  console.log(`${packed.filename}: ${files.length} files, ${packed.size} bytes packed`);
  run(bin('attw'), [join(destination, packed.filename)]);
} finally {
  rmSync(destination, { recursive: true, force: true });
}

// Packing a published workspace as `npm publish` would, and finding the tarball `npm test` packed. `npm test`
// (scripts/test-all.mjs) packs each package once, right after its build, into the folder CARDRAIL_PACKS_DIR names,
// with what `npm pack --json` said about it beside the tarball; the package checks and package-tests take that
// tarball instead of packing again. Types: packs.d.mts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `npm pack --json` summary of `workspace` (a path such as `sdk`) in a packs folder. */
const manifestPath = (dir, workspace) => join(dir, `${workspace.replaceAll('/', '__')}.json`);

/**
 * Packs the workspace folder `from` into `destination` without lifecycle scripts (prepack would rebuild what the
 * build has just built) and returns `npm pack --json`'s summary of it, with the tarball's path.
 */
export function packWorkspace(from, destination) {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
      cwd: from,
      encoding: 'utf8',
    }),
  );
  if (!packed) throw new Error(`npm pack gave nothing for ${from}`);
  const { name, version, filename, size, files } = packed;
  return { name, version, filename, size, files, path: join(destination, filename) };
}

/** Packs `workspace` of the repository at `root` into the packs folder `dir`, its summary beside the tarball. */
export function packIntoPacksDir(root, workspace, dir) {
  const { path, ...summary } = packWorkspace(join(root, workspace), dir);
  writeFileSync(manifestPath(dir, workspace), JSON.stringify(summary, null, 2));
  return { ...summary, path };
}

/**
 * The tarball `npm test` packed for this workspace (CARDRAIL_PACKS_DIR), or undefined outside `npm test`. When the
 * folder is set but lacks the tarball, that is an error: a check that quietly packed again would hide a broken run.
 */
export function packedTarball(workspace) {
  const dir = process.env.CARDRAIL_PACKS_DIR;
  if (!dir) return undefined;
  const manifest = manifestPath(dir, workspace);
  if (!existsSync(manifest)) throw new Error(`CARDRAIL_PACKS_DIR=${dir} has no tarball of ${workspace} (${manifest} is missing)`);
  const packed = JSON.parse(readFileSync(manifest, 'utf8'));
  return { ...packed, path: join(dir, packed.filename) };
}

// Where scripts/pack-workspace.mjs leaves a workspace's tarball, and how a package check finds it again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `npm pack --json` summary of `workspace` (a path such as `sdk`) in a packs folder. */
export const packManifestPath = (dir, workspace) => join(dir, `${workspace.replaceAll('/', '__')}.json`);

/**
 * The tarball `npm test` packed for this workspace (CARDRAIL_PACKS_DIR), or undefined outside `npm test`. When the
 * folder is set but lacks the tarball, that is an error: a check that quietly packed again would hide a broken run.
 */
export function packedTarball(workspace) {
  const dir = process.env.CARDRAIL_PACKS_DIR;
  if (!dir) return undefined;
  const manifest = packManifestPath(dir, workspace);
  if (!existsSync(manifest)) throw new Error(`CARDRAIL_PACKS_DIR=${dir} has no tarball of ${workspace} (${manifest} is missing)`);
  const packed = JSON.parse(readFileSync(manifest, 'utf8'));
  return { ...packed, path: join(dir, packed.filename) };
}

// Types of packs.mjs, for the TypeScript suites that use it (package-tests).

/** What `npm pack --json` says of a tarball, and where it is. */
export interface PackedTarball {
  name: string;
  version: string;
  filename: string;
  size: number;
  files: { path: string }[];
  /** The tarball's absolute path. */
  path: string;
}

export function packWorkspace(from: string, destination: string): PackedTarball;
export function packIntoPacksDir(root: string, workspace: string, dir: string): PackedTarball;
export function packedTarball(workspace: string): PackedTarball | undefined;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { PackedTarball } from '../../scripts/lib/packs.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The temporary project the tarballs are installed into, with what npm installs today (msw 3, TypeScript 7). */
    consumerDir: string;
    /** The project of a user on Node 20 with msw 2 (consumer-msw2/package.json), installed by npm on Node 20. */
    consumerMsw2Dir: string;
    /** Each published package as `npm pack --json` described its tarball. */
    packed: PackedTarball[];
  }
}

export const consumerDir = inject('consumerDir');
export const consumerMsw2Dir = inject('consumerMsw2Dir');
export const packed = inject('packed');

/** The manifest of an installed package, as it came out of its tarball. */
export function installedManifest(name: string): {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
} {
  return JSON.parse(readFileSync(join(consumerDir, 'node_modules', name, 'package.json'), 'utf8'));
}

/** Every import specifier a user can write for the published packages: each package's export subpaths. */
export function publicEntries(): string[] {
  return packed.flatMap(({ name }) =>
    Object.keys(installedManifest(name).exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`)),
  );
}

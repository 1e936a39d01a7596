// Package size: what `npm pack` puts in each published package's tarball (packed and unpacked bytes, files), as a
// user's install and every CI cache pay for it. Measured with `npm pack --dry-run --json --ignore-scripts` on the
// built packages (sdk/dist, mock-server/dist, agent-toolkit/dist); sizes are deterministic, so quick and full mode
// agree. The baseline is each package before the lean-packages change (commit f2bdd3a: source maps in every build,
// the spec documents and generated checks twice, once per module format, the generated types inlined twice).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.mjs';

export const title = 'Package size';

const MB = 1_000_000;
/** Per package: its folder, the unpacked target, and what it packed to before (f2bdd3a, measured the same way). */
const PACKAGES = [
  { workspace: 'mock-server', targetBytes: 4 * MB, before: { size: 1_263_999, unpacked: 9_761_411, files: 64 } },
  { workspace: 'sdk', targetBytes: 1 * MB, before: { size: 254_886, unpacked: 1_882_270, files: 43 } },
  { workspace: 'agent-toolkit', before: { size: 76_261, unpacked: 328_911, files: 45 } },
];

const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;

export function measure(workspace) {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: join(repoRoot, workspace),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const maps = packed.files.filter((file) => file.path.endsWith('.map')).length;
  return { name: packed.name, size: packed.size, unpacked: packed.unpackedSize, files: packed.files.length, maps };
}

export async function run({ log }) {
  log('npm pack --dry-run --json of each published package');
  const rows = PACKAGES.map(({ workspace, targetBytes, before }) => {
    const now = measure(workspace);
    return {
      measure: `${now.name}: unpacked (packed), files`,
      ours: `${mb(now.unpacked)} (${mb(now.size)}), ${now.files} files, ${now.maps} source maps`,
      baseline: `before: ${mb(before.unpacked)} (${mb(before.size)}), ${before.files} files`,
      ratio: `${(before.unpacked / now.unpacked).toFixed(2)}x`,
      target: targetBytes === undefined ? '' : `<= ${targetBytes / MB} MB unpacked`,
      met: targetBytes === undefined ? null : now.unpacked <= targetBytes,
    };
  });
  const notes = [
    '`npm pack --dry-run --json --ignore-scripts` in each package folder, on the built dist/; 1 MB = 1,000,000 bytes. Ratio: before / now, unpacked.',
    'The mock ships the spec documents once, as gzip-compressed JSON in base64 (dist/spec/documents.cjs, 145 kB instead of 1 MB of object literals; decompressed on first use, for `validateResponses`, with the web-standard `DecompressionStream`), and the generated request checks once (CommonJS modules under dist/spec/, loaded on demand by both builds); its declarations take the API types from @cardrail/sdk. No package ships source maps (the JavaScript is not minified and keeps comments, names and `//#region src/...` markers).',
    'Declarations ship once, indented with tabs: each .d.mts file imports the .d.cts chunks, and an entry point whose ESM and CommonJS declarations match is `export * from "./<entry>.cjs"` (scripts/share-declarations.mjs). The SDK ships its generated API types once (dist/api-types.d.cts, imported by its ESM and CommonJS declarations), where each user-variant member declared exactly as the customer one keeps its JSDoc and takes the customer type (sdk/scripts/share-variant-types.mjs).',
  ];
  return { rows, notes };
}

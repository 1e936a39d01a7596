#!/usr/bin/env node
// Builds the dashboard into static files: index.html, app.js (the views, Preact and @cardrail/sdk's browser build
// bundled into one minified ES module), app.css and favicon.svg. @cardrail/mock-server copies them into its package
// and serves them at its root. Nothing inline (the page's Content-Security-Policy allows files of its own origin only).
//
//   node scripts/build.mjs                         dist/, with the SDK as its package builds it (npm run build)
//   node scripts/build.mjs --outdir <dir> --sdk-from-sources
//                                                  the SDK from its TypeScript sources, so nothing has to be built
//                                                  first (npm run mock)
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { outdir: { type: 'string' }, 'sdk-from-sources': { type: 'boolean', default: false } },
  strict: true,
});
const outdir = resolve(values.outdir ?? join(root, 'dist'));
const started = performance.now();

const sdkSources = join(root, '..', 'sdk', 'src');
const result = await build({
  entryPoints: [
    { in: join(root, 'src', 'main.tsx'), out: 'app' },
    { in: join(root, 'src', 'styles.css'), out: 'app' },
  ],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  write: false,
  outdir,
  logLevel: 'warning',
  // The browser build of the SDK (Web Crypto, no `node:` import) through the package's `browser` export condition.
  conditions: ['browser'],
  alias: values['sdk-from-sources']
    ? { '@cardrail/sdk': join(sdkSources, 'index.ts'), '@cardrail/sdk/webhooks': join(sdkSources, 'webhooks', 'index.ts') }
    : {},
});

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const written = [];
for (const file of result.outputFiles) {
  const name = relative(outdir, file.path);
  writeFileSync(join(outdir, name), file.contents);
  written.push({ name, bytes: file.contents.length, gzip: gzipSync(file.contents, { level: 9 }).length });
}
for (const name of ['index.html', 'favicon.svg']) {
  copyFileSync(join(root, 'src', name), join(outdir, name));
  const bytes = readFileSync(join(outdir, name));
  written.push({ name, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const total = written.reduce((sum, file) => sum + file.gzip, 0);
process.stdout.write(
  `dashboard: ${written.map((file) => `${file.name} ${kb(file.bytes)} (${kb(file.gzip)} gzip)`).join(', ')}; ` +
    `${kb(total)} gzip in all, built in ${Math.round(performance.now() - started)} ms into ${relative(process.cwd(), outdir) || '.'}\n`,
);

import { defineConfig, type UserConfig } from 'tsdown';
import { asciiOutput } from '../scripts/lib/ascii-output.mjs';

const shared = {
  // Two builds of each entry point in one bundle (so they share their chunks: one CardrailError class, one client):
  // Web Crypto (index, webhooks), which runs everywhere, and node:crypto (*.node), which package.json's `node` export
  // condition gives to Node, Bun and Deno for synchronous, native-speed webhook HMACs. Only the *.node files import a
  // Node built-in; a bundle for browsers, edge runtimes or workers never reaches them.
  entry: {
    index: 'src/index.ts',
    'index.node': 'src/index.node.ts',
    webhooks: 'src/webhooks/index.ts',
    'webhooks.node': 'src/webhooks/index.node.ts',
    // The WWW-Authenticate parser alone (no crypto, one build): what the mock reads MPP challenges with, without
    // loading the client.
    'www-authenticate': 'src/payments/www-authenticate.ts',
  },
  // Web standards only (fetch, Web Crypto) outside the *.node files, which use node:crypto (left external).
  platform: 'neutral',
  // The generated API types (`@cardrail/spec`, types only) are not inlined into each build's declarations: both import
  // them from dist/api-types.d.cts (the last build below), one file of 660 kB instead of two.
  deps: { neverBundle: ['node:crypto', /^@cardrail\/spec$/] },
  // JSDoc ships once, in the declarations, where editors show it; the JavaScript keeps its names, its `//` comments
  // and its `//#region src/...` markers (two more copies of every doc comment were 66 kB, 6% of the package).
  outputOptions: { paths: { '@cardrail/spec': './api-types.cjs' }, comments: { jsdoc: false, legal: true, annotation: true } },
  target: 'es2022',
  // Declarations without what is marked @internal: the resources' typed `send`, which only the SDK's own classes
  // call, would bring the whole lookup of operations (core/operation-lookup.ts) into both builds' declarations.
  dts: { compilerOptions: { stripInternal: true } },
  // No source maps: the JavaScript shipped is not minified, keeps its comments and names, and marks each source file
  // (`//#region src/...`), so a stack trace or a debugger already lands on readable code; maps (with the sources
  // inlined, the only kind that helps without src/ in the package) would double its size.
  sourcemap: false,
  outDir: 'dist',
  // Every chunk in ASCII (scripts/lib/ascii-output.mjs: a non-ASCII character makes Node and V8 handle a whole file as
  // two-byte text, which slows loading it).
  plugins: [asciiOutput()],
  // The build's own timing report (rolldown's plugin timings) is not a problem to act on in every npm test.
  checks: { pluginTimings: false },
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
} satisfies UserConfig;

export default defineConfig([
  { ...shared, format: 'esm', clean: true },
  {
    ...shared,
    format: 'cjs',
    clean: false,
    // openapi-fetch ships its CJS entry with `exports.default` but types it as `export =`; requiring it from a
    // bundled CJS file broke with "default is not a function" (seen with both tsup and tsdown). Inlining it into the
    // CJS output removes the interop question; the ESM output keeps it as an ordinary dependency.
    deps: {
      ...shared.deps,
      // JavaScript only: the .d.cts files keep importing openapi-fetch's own types.
      alwaysBundle: (id, importer) =>
        (id === 'openapi-fetch' || id === 'canonicalize') && importer !== undefined && !importer.endsWith('.d.ts'),
      onlyBundle: ['openapi-fetch', 'canonicalize'],
    },
  },
  // The generated API types, declarations only: a CommonJS declaration file, which ESM declarations may import too.
  {
    entry: { 'api-types': 'src/api-types.ts' },
    platform: 'neutral',
    format: 'cjs',
    fixedExtension: true,
    dts: { emitDtsOnly: true },
    outDir: 'dist',
    checks: { pluginTimings: false },
    clean: false,
  },
]);

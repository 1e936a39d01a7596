import { defineConfig, type UserConfig } from 'tsdown';

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
  },
  // Web standards only (fetch, Web Crypto) outside the *.node files, which use node:crypto (left external).
  platform: 'neutral',
  deps: { neverBundle: ['node:crypto'] },
  target: 'es2022',
  dts: true,
  sourcemap: true,
  outDir: 'dist',
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
    // bundled CJS file broke with "default is not a function" (toolchain.md). Inlining it into the CJS output removes
    // the interop question; the ESM output keeps it as an ordinary dependency.
    deps: {
      ...shared.deps,
      // JavaScript only: the .d.cts files keep importing openapi-fetch's own types.
      alwaysBundle: (id, importer) => id === 'openapi-fetch' && importer !== undefined && !importer.endsWith('.d.ts'),
      onlyBundle: ['openapi-fetch'],
    },
  },
]);

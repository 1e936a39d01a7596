import { defineConfig, type UserConfig } from 'tsdown';

const shared = {
  entry: { index: 'src/index.ts', webhooks: 'src/webhooks/index.ts' },
  // Web standards only (fetch, Web Crypto): the same output runs on Node, Deno, Bun, Workers and browsers.
  platform: 'neutral',
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
      // JavaScript only: the .d.cts files keep importing openapi-fetch's own types.
      alwaysBundle: (id, importer) => id === 'openapi-fetch' && importer !== undefined && !importer.endsWith('.d.ts'),
      onlyBundle: ['openapi-fetch'],
    },
  },
]);

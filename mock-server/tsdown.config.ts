import { defineConfig, type UserConfig } from 'tsdown';

const entry = { index: 'src/index.ts', msw: 'src/adapters/msw.ts', node: 'src/adapters/node.ts' };

const shared = {
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  outDir: 'dist',
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
  // The precompiled validators are found next to the built chunks through import.meta.url, in both formats.
  shims: true,
  // @cardrail/spec (a private workspace, so not a dependency) is inlined: its documents and types ship inside.
  deps: {
    // tinyqueue ships ES modules only; inlined (a few dozen lines), the CommonJS build needs no require(esm).
    // jsonc-parser (the CLI's JSON syntax errors with their place) is inlined: the CLI is the only one to use it.
    alwaysBundle: ['tinyqueue', 'jsonc-parser'],
    onlyBundle: ['tinyqueue', 'jsonc-parser'],
  },
  // ES modules where an inlined package has both (jsonc-parser's `main` is UMD, whose require()s do not bundle).
  inputOptions: { resolve: { mainFields: ['module', 'main'] } },
} satisfies UserConfig;

export default defineConfig([
  // The CLI shares the ESM chunks; it sits at the root of dist/ like them.
  { ...shared, entry: { ...entry, cli: 'src/bin/cardrail-mock.ts' }, format: 'esm', clean: true },
  { ...shared, entry, format: 'cjs', clean: false },
]);

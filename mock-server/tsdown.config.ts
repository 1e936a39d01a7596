import { defineConfig, type UserConfig } from 'tsdown';

const entry = { index: 'src/index.ts', msw: 'src/adapters/msw.ts', node: 'src/adapters/node.ts' };

const shared = {
  // Web standards only, except the Node adapter and the CLI, which import node: built-ins (left external).
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  sourcemap: true,
  outDir: 'dist',
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
  // @cardrail/spec (a private workspace, so not a dependency) is inlined: its documents and types ship inside.
  // The spec's documents and the checks generated from them (src/spec/generated) are imported on first use, so each
  // lands in a chunk of its own that a mock loads when a request needs it.
  deps: {
    // ES modules only; inlined (a few dozen lines each, tree-shaken), the CommonJS build needs no require(esm).
    // jsonc-parser (the CLI's JSON syntax errors with their place) is inlined: the CLI is the only one to use it.
    alwaysBundle: ['tinyqueue', /^@noble\/hashes/, 'jsonc-parser'],
    onlyBundle: ['tinyqueue', '@noble/hashes', 'jsonc-parser'],
    neverBundle: [/^node:/],
  },
  // ES modules where an inlined package has both (jsonc-parser's `main` is UMD, whose require()s do not bundle).
  inputOptions: { resolve: { mainFields: ['module', 'main'] } },
} satisfies UserConfig;

export default defineConfig([
  // The CLI shares the ESM chunks; it sits at the root of dist/ like them.
  { ...shared, entry: { ...entry, cli: 'src/bin/cardrail-mock.ts' }, format: 'esm', clean: true },
  { ...shared, entry, format: 'cjs', clean: false },
]);

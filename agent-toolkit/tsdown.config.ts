import { defineConfig, type UserConfig } from 'tsdown';

const shared = {
  target: 'es2022',
  dts: true,
  sourcemap: true,
  outDir: 'dist',
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
} satisfies UserConfig;

const library = {
  ...shared,
  entry: {
    index: 'src/index.ts',
    'ai-sdk': 'src/adapters/ai-sdk.ts',
    mcp: 'src/mcp/index.ts',
    // stdio and node:http: Node only, behind their own entry point.
    'mcp-node': 'src/mcp/node.ts',
  },
  platform: 'node',
} satisfies UserConfig;

export default defineConfig([
  { ...library, format: 'esm', clean: true },
  { ...library, format: 'cjs', clean: false },
  // The bin runs as ESM only; it needs no types.
  { ...shared, entry: { 'bin/cardrail-mcp': 'src/bin/cardrail-mcp.ts' }, platform: 'node', format: 'esm', dts: false, clean: false },
]);

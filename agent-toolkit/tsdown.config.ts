import { defineConfig, type UserConfig } from 'tsdown';
import { asciiOutput } from '../scripts/lib/ascii-output.mjs';
import { approvalCardPlugin } from './scripts/approval-card.mjs';

const entry = {
  index: 'src/index.ts',
  'ai-sdk': 'src/adapters/ai-sdk.ts',
  'openai-agents': 'src/adapters/openai-agents.ts',
  mcp: 'src/mcp/index.ts',
  // stdio and node:http: Node only, behind their own entry point.
  'mcp-node': 'src/mcp/node.ts',
};

const shared = {
  platform: 'node',
  target: 'es2022',
  dts: true,
  // No source maps: the JavaScript shipped is not minified and keeps its comments, names and `//#region src/...` markers.
  sourcemap: false,
  outDir: 'dist',
  // The build's own timing report (rolldown's plugin timings) is not a problem to act on in every npm test.
  checks: { pluginTimings: false },
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
  // The MCP App approval card's HTML, built from src/mcp/apps/view and inlined where the server imports it; every
  // chunk written in ASCII (scripts/lib/ascii-output.mjs: a non-ASCII character slows each start).
  plugins: [approvalCardPlugin(), asciiOutput()],
  // Of the devDependencies, only MCP Apps' server constants go into the build (a few lines: the extension's id, its
  // MIME type); everything the package imports at run time is a dependency.
  deps: { onlyBundle: ['@modelcontextprotocol/ext-apps'] },
} satisfies UserConfig;

export default defineConfig([
  // The bin is ESM only and shares its chunks with the ESM entry points.
  { ...shared, entry: { ...entry, 'bin/cardrail-mcp': 'src/bin/cardrail-mcp.ts' }, format: 'esm', clean: true },
  {
    ...shared,
    entry,
    format: 'cjs',
    clean: false,
    // The bundler's runtime (its CommonJS interop helpers) in a chunk of its own, as in the ESM build: left to the
    // bundler, it joined the MCP chunk, which needs the toolkit's chunk, which then required the MCP chunk back for the
    // runtime, and \`require('@cardrail/agent-toolkit')\` met the toolkit's class before it was defined.
    outputOptions: { codeSplitting: { groups: [{ name: 'rolldown-runtime', test: /^\0rolldown\/runtime\.js$/ }] } },
  },
]);

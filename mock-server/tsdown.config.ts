import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'tsdown';
import { asciiOutput } from '../scripts/lib/ascii-output.mjs';
import { compressedDocuments } from './scripts/compressed-documents.mjs';

const entry = {
  index: 'src/index.ts',
  msw: 'src/adapters/msw.ts',
  node: 'src/adapters/node.ts',
  // The merchant fakes: an entry of their own, so that the mock's own entries do not carry them.
  merchants: 'src/testkit/merchants/index.ts',
};

/**
 * The large data the mock loads on demand: the spec's two documents (1.3 MB of JSON, shipped compressed: see
 * scripts/compressed-documents.mjs) and the request checks generated from them (1.2 MB). One copy of each ships, as
 * CommonJS modules under dist/spec/ (the last build below), which the ESM build imports with `import()` and the
 * CommonJS build with `require()`: a CommonJS file is the one form both can load everywhere (Node.js 20, jest's module
 * system, which has no `import()` without a flag, bundlers, Bun, Deno).
 * Each entry maps a module of the sources to its file.
 */
const DATA_MODULES = {
  'spec/documents': '../spec/documents.js',
  // Not data, but loaded on demand the same way: jose, with the JWE of an MPP card credential and the AP2 mandates'
  // and receipts' signatures (@sd-jwt/core inlined).
  'jose/jose-module': 'src/engine/jose-module.ts',
  'spec/customer.parameters': 'src/spec/generated/validators/customer.parameters.js',
  'spec/customer.bodies': 'src/spec/generated/validators/customer.bodies.js',
  'spec/user.parameters': 'src/spec/generated/validators/user.parameters.js',
  'spec/user.bodies': 'src/spec/generated/validators/user.bodies.js',
};
const SPEC_DOCUMENTS = fileURLToPath(new URL('../spec/documents.js', import.meta.url));
/** The dist/spec/ file of a data module (by its import specifier or resolved path), or undefined. */
function dataFile(id: string): string | undefined {
  if (id.endsWith('.d.ts')) return undefined;
  // Only the spec workspace's module: the mock's own src/spec/documents.js (a type import the declaration build keeps)
  // also ends in /spec/documents.js, and rewriting it left the ESM declarations importing an undeclared .cjs file.
  if (id === '@cardrail/spec/documents' || id === SPEC_DOCUMENTS) return './spec/documents.cjs';
  if (/(^|\/)jose-module\.(js|ts)$/.test(id)) return './jose/jose-module.cjs';
  const validators = /\/generated\/validators\/((?:customer|user)\.(?:parameters|bodies))\.js$/.exec(id);
  return validators ? `./spec/${validators[1]}.cjs` : undefined;
}

/** Leaves the data modules out of a build: its chunks (all at the root of dist/) import them from dist/spec/. */
const importsData = {
  plugins: [
    asciiOutput(),
    {
      name: 'cardrail:data-modules',
      resolveId: {
        order: 'pre',
        handler: (id: string, importer: string | undefined) => {
          // Declarations inline the types instead: dist/spec/ holds JavaScript only.
          if (importer !== undefined && /\.d\.[cm]?ts$/.test(importer)) return null;
          const file = dataFile(id);
          return file ? { id: file, external: 'absolute' } : null;
        },
      },
    },
  ],
} satisfies UserConfig;

const shared = {
  // Web standards only, except the Node adapter and the CLI, which import node: built-ins (left external).
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  // No source maps: the JavaScript shipped is not minified, keeps its comments and names, and marks each source file
  // (`//#region src/...`), so a stack trace or a debugger already lands on readable code; maps (with the sources
  // inlined, the only kind that helps without src/ in the package) were 4.4 MB, 45% of the package.
  sourcemap: false,
  outDir: 'dist',
  // JSDoc ships once, in the declarations, where editors show it: the JavaScript keeps its names, its `//` comments
  // and its `//#region src/...` markers (two more copies of every doc comment were about 300 kB of the package).
  outputOptions: { comments: { jsdoc: false, legal: true, annotation: true } },
  // The build's own timing report (rolldown's plugin timings) is not a problem to act on in every npm test.
  checks: { pluginTimings: false },
  // .mjs/.cjs and .d.mts/.d.cts: each file's module kind is explicit whatever the consumer's package type.
  fixedExtension: true,
  // @cardrail/spec (a private workspace, so not a dependency) is inlined: its documents and types ship inside.
  // The spec's documents and the checks generated from them (src/spec/generated) are imported on first use, so each
  // lands in a chunk of its own that a mock loads when a request needs it.
  deps: {
    // ES modules only; inlined (a few dozen lines each, tree-shaken), the CommonJS build needs no require(esm).
    // jsonc-parser (the CLI's JSON syntax errors with their place) is inlined: the CLI is the only one to use it.
    alwaysBundle: ['tinyqueue', /^@noble\/hashes/, 'jsonc-parser', 'canonicalize'],
    onlyBundle: ['tinyqueue', '@noble/hashes', 'jsonc-parser', 'canonicalize'],
    neverBundle: [/^node:/],
  },
  // ES modules where an inlined package has both (jsonc-parser's `main` is UMD, whose require()s do not bundle).
  inputOptions: { resolve: { mainFields: ['module', 'main'] } },
} satisfies UserConfig;

export default defineConfig([
  // The CLI shares the ESM chunks; it sits at the root of dist/ like them.
  { ...shared, ...importsData, entry: { ...entry, cli: 'src/bin/cardrail-mock.ts' }, format: 'esm', clean: true },
  // `require()` for what it loads on demand (the data modules, Ajv): jest's module system has no `import()`.
  // The CLI's server loads from it on Node (serve-command.cjs; see src/bin/cardrail-mock.ts).
  {
    ...shared,
    ...importsData,
    entry: { ...entry, 'serve-command': 'src/cli/serve-command.ts' },
    format: 'cjs',
    clean: false,
    outputOptions: { ...shared.outputOptions, dynamicImportInCjs: false },
  },
  // The data modules, once, for both builds above: each its own build (no chunk shared between them) with Ajv's few
  // run-time helpers and the formats inlined, so that loading one resolves no other module: Deno runs them without
  // any permission.
  ...Object.entries(DATA_MODULES).map(([name, source]) => ({
    ...shared,
    entry: { [name]: source },
    format: 'cjs' as const,
    dts: false,
    clean: false,
    plugins: [asciiOutput(), compressedDocuments(SPEC_DOCUMENTS)],
    deps: {
      // jose is ES modules only, which the CommonJS build could not require() on Node 20 or in jest: inlined.
      alwaysBundle: [
        /^ajv\/dist\/runtime\//,
        /^ajv-formats\/dist\/formats/,
        'fast-deep-equal',
        /^jose/,
        /^@sd-jwt\//,
        'js-base64',
      ],
      neverBundle: [/^node:/],
    },
  })),
]);

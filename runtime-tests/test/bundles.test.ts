// Bundlers for browsers and edge: esbuild bundles of the mock's published entries (`@cardrail/mock-server/msw` and
// `@cardrail/mock-server`, through the package's exports, so the built dist/) hold no Node built-in, and their entry
// script holds no spec document: the documents and each operation's request checks are chunks loaded on first need.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../support/bundle.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Imports of Node built-ins left in bundled code: static, dynamic or required. */
function nodeImports(code: string): string[] {
  return [
    ...code.matchAll(
      /(?:from|import|require)\s*\(?\s*["']((?:node:)?(?:crypto|fs|path|buffer|stream|util|os|http|https|net|module|url|zlib|string_decoder)|node:[^"']+)["']/g,
    ),
  ].map((match) => match[1] as string);
}

describe('a browser bundle (esbuild, platform browser)', () => {
  for (const [entry, contents] of [
    ['@cardrail/mock-server/msw', "export { createHandlers } from '@cardrail/mock-server/msw';"],
    ['@cardrail/mock-server', "export { createMockServer } from '@cardrail/mock-server';"],
  ] as const) {
    it(`of ${entry} has no node: import, and its entry script holds no spec document`, async () => {
      const { outputFiles, metafile } = await bundleForBrowser({
        stdin: { contents, resolveDir: repoRoot, sourcefile: 'page.mjs', loader: 'js' },
      });
      for (const output of outputFiles) expect(nodeImports(output.text), output.path).toEqual([]);
      const external = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external));
      expect(external).toEqual([]);
      // The documents (and the request checks) are chunks of their own, loaded on first need.
      // The page's own script (each dynamically imported module is an entry point of its own chunk too).
      const entryOutput = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint?.endsWith('page.mjs'));
      expect(entryOutput).toBeDefined();
      const entryInputs = Object.keys(entryOutput?.[1].inputs ?? {});
      // (dist/spec/: one CommonJS file each, which the package's ESM and CommonJS builds both load.)
      const data = /mock-server\/dist\/spec\/(documents|(customer|user)\.(parameters|bodies))\.cjs$/;
      expect(entryInputs.filter((input) => data.test(input) || /spec\/dist\/.*\.json$/.test(input))).toEqual([]);
      expect(Object.keys(metafile.inputs).filter((input) => data.test(input))).toHaveLength(5);
    });
  }
});

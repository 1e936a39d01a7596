// The Web Crypto build of each entry point (index, webhooks, www-authenticate; what browsers, edge runtimes, workers and old resolvers
// load) must run on any runtime with web standards: no Node built-in module, no Buffer, and `process` only behind an
// existence check, in the entry file and in every chunk it loads. The node:crypto build (*.node, chosen by the `node`
// export condition) may import node:crypto and nothing else of Node's.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const distDir = new URL('../dist/', import.meta.url);
const bundles = readdirSync(distDir).filter((file) => file.endsWith('.mjs') || file.endsWith('.cjs'));

/** The file's code without comments: doc comments may show Node usage (`process.env.CARDRAIL_API_KEY`); only code counts. */
function code(file: string): string {
  return readFileSync(new URL(file, distDir), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/** Every specifier a file imports or requires, statically or dynamically. */
function specifiers(file: string): string[] {
  return [...code(file).matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s*)["']([^"']+)["']/gm)].map(
    (match) => match[1] as string,
  );
}

/** The entry file and every dist file it reaches through relative imports. */
function reachable(entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen) {
    for (const specifier of specifiers(file)) if (specifier.startsWith('./')) seen.add(specifier.slice(2));
  }
  return [...seen];
}

const NODE_BUILT_IN = /^(?:node:|(?:fs|path|crypto|http|https|buffer|stream|os|util|url|zlib)(?:\/|$))/;
const webEntries = ['index.mjs', 'index.cjs', 'webhooks.mjs', 'webhooks.cjs', 'www-authenticate.mjs', 'www-authenticate.cjs'];
const nodeEntries = ['index.node.mjs', 'index.node.cjs', 'webhooks.node.mjs', 'webhooks.node.cjs'];

describe('runtime portability of dist/', () => {
  it('ships ESM and CJS bundles of both builds of each entry point', () => {
    for (const entry of [...webEntries, ...nodeEntries]) expect(bundles).toContain(entry);
  });

  it('follows the imports of a file (the graph walk below can see a chunk)', () => {
    expect(reachable('webhooks.mjs').length).toBeGreaterThan(1);
    expect(reachable('webhooks.cjs').length).toBeGreaterThan(1);
  });

  const webFiles = [...new Set(webEntries.flatMap(reachable))];
  it.each(webFiles)('%s (Web Crypto build) imports no Node built-in and touches no Node-only global', (file) => {
    expect(specifiers(file).filter((specifier) => NODE_BUILT_IN.test(specifier))).toEqual([]);
    expect(code(file)).not.toMatch(/\bBuffer\s*\./);
    // A bare `process` is allowed only on a line that first checks it exists (`typeof process`).
    const unguarded = code(file)
      .split('\n')
      .filter((line) => /(^|[^.\w?])process\b(?!able)/.test(line) && !line.includes('typeof process'));
    expect(unguarded).toEqual([]);
  });

  it.each(nodeEntries)('%s (node:crypto build) imports node:crypto and no other Node built-in', (entry) => {
    const builtIns = reachable(entry).flatMap((file) => specifiers(file).filter((specifier) => NODE_BUILT_IN.test(specifier)));
    expect(new Set(builtIns)).toEqual(new Set(['node:crypto']));
  });
});

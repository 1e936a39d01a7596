// The shipped bundles must run on any runtime with web standards (Node 20+, Deno, Bun, Workers, browsers): no Node
// built-in module, no Buffer, and `process` only behind an existence check.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const distDir = new URL('../dist/', import.meta.url);
const bundles = readdirSync(distDir).filter((file) => file.endsWith('.mjs') || file.endsWith('.cjs'));

describe('runtime portability of dist/', () => {
  it('ships ESM and CJS bundles', () => {
    expect(bundles.some((file) => file.endsWith('.mjs'))).toBe(true);
    expect(bundles.some((file) => file.endsWith('.cjs'))).toBe(true);
  });

  it.each(bundles)('%s imports no Node built-in and touches no Node-only global', (file) => {
    // Doc comments may show Node usage (`process.env.CARDRAIL_API_KEY`); only code counts.
    const code = readFileSync(new URL(file, distDir), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    expect(code).not.toMatch(/(?:from\s*|import\s*\(\s*|require\s*\(\s*)["'](?:node:|fs|path|crypto|http|https|buffer|stream|os|util|url|zlib)["'/]/);
    expect(code).not.toMatch(/\bBuffer\s*\./);
    // A bare `process` is allowed only on a line that first checks it exists (`typeof process`).
    const unguarded = code.split('\n').filter((line) => /(^|[^.\w?])process\b(?!able)/.test(line) && !line.includes('typeof process'));
    expect(unguarded).toEqual([]);
  });
});

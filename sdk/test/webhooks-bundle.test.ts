// Which build of `@cardrail/sdk/webhooks` (and of the root, which re-exports it) each kind of consumer gets, from the
// built package imported by name as an application does: browsers and edge bundlers get the Web Crypto build (no
// `node:` import, small), Node-targeted bundlers and Node itself get the node:crypto build.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as distRootEsm from '../dist/index.mjs';
import * as distRootNodeEsm from '../dist/index.node.mjs';
import * as distWebhooksNodeEsm from '../dist/webhooks.node.mjs';

const sdkDir = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Resolved from the repository root, through node_modules/@cardrail/sdk: the package's exports map decides. */
const resolveDir = join(sdkDir, '..');
/**
 * What a receiver imports (`unwrap`, `constructEvent`, `verifySignature`, `WebhookVerificationError`), min+gzip, for
 * browsers and edge runtimes. It was under 3,000 bytes with Cardrail-Signature alone (2,511 for constructEvent); both
 * schemes, detected from the request's headers, take 3,488: the Standard Webhooks grammar, base64 secrets and digests,
 * reading headers from a Headers object or a record, and the errors that say which scheme failed.
 */
const MAX_RECEIVER_GZIP_BYTES = 3600;
/** The whole module: the above, the signing functions for tests, the event type list and its guards. */
const MAX_MODULE_GZIP_BYTES = 4800;

async function bundle(contents: string, options: BuildOptions) {
  const result = await build({
    stdin: { contents, resolveDir, sourcefile: 'app.mjs', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...options,
  });
  const code = result.outputFiles?.[0]?.text ?? '';
  const inputs = Object.keys(result.metafile?.inputs ?? {}).map((input) => input.replace(/^.*sdk\/dist\//, 'dist/'));
  return { code, inputs, gzipBytes: gzipSync(code, { level: 9 }).length };
}

/** `node:` (or bare built-in) imports left in a bundle, static, dynamic or required (messages may mention node:http). */
function nodeImports(code: string): string[] {
  return [
    ...code.matchAll(
      /(?:from|import|require)\s*\(?\s*["']((?:node:)?(?:crypto|fs|path|buffer|stream|util|os|http|https|zlib|url)|node:[^"']+)["']/g,
    ),
  ].map((match) => match[1] as string);
}

describe('bundling @cardrail/sdk/webhooks', () => {
  it(`for browsers: the Web Crypto build, no node: import, under ${MAX_MODULE_GZIP_BYTES} bytes min+gzip`, async () => {
    const { code, inputs, gzipBytes } = await bundle("export * from '@cardrail/sdk/webhooks';", { platform: 'browser' });
    expect(inputs).toContain('dist/webhooks.mjs');
    expect(inputs.filter((input) => input.includes('.node'))).toEqual([]);
    expect(nodeImports(code)).toEqual([]);
    expect(code).toContain('crypto.subtle');
    expect(gzipBytes).toBeLessThan(MAX_MODULE_GZIP_BYTES);
  });

  it(`for a browser or edge receiver: unwrap, constructEvent, verifySignature under ${MAX_RECEIVER_GZIP_BYTES} bytes`, async () => {
    const { code, gzipBytes } = await bundle(
      "export { unwrap, constructEvent, verifySignature, WebhookVerificationError } from '@cardrail/sdk/webhooks';",
      { platform: 'browser' },
    );
    // Tree-shaken: the event type list, its guards and the signing functions stay out.
    expect(code).not.toContain('withdrawal.submitted');
    expect(code).not.toContain('randomUUID');
    expect(code).toContain('webhook-signature');
    expect(gzipBytes).toBeLessThan(MAX_RECEIVER_GZIP_BYTES);
  });

  it('for browsers, through the package root too', async () => {
    const { code, inputs } = await bundle("export { verifySignature, Cardrail } from '@cardrail/sdk';", { platform: 'browser' });
    expect(inputs).toContain('dist/index.mjs');
    expect(inputs.filter((input) => input.includes('.node'))).toEqual([]);
    expect(nodeImports(code)).toEqual([]);
  });

  it('for Workers and Vercel Edge (worker conditions), even when a bundler also sets `node`', async () => {
    for (const conditions of [
      ['workerd', 'worker', 'browser'],
      ['edge-light', 'worker', 'browser'],
      ['worker', 'node'],
      ['browser', 'node'],
    ]) {
      const { code, inputs } = await bundle("export * from '@cardrail/sdk/webhooks';", { platform: 'neutral', conditions });
      expect(inputs, conditions.join()).toContain('dist/webhooks.mjs');
      expect(nodeImports(code), conditions.join()).toEqual([]);
    }
  });

  it('for Node (ESM): the node:crypto build', async () => {
    const { code, inputs } = await bundle("export * from '@cardrail/sdk/webhooks';", { platform: 'node' });
    expect(inputs).toContain('dist/webhooks.node.mjs');
    expect(inputs).not.toContain('dist/webhooks.mjs');
    expect(nodeImports(code)).toEqual(['node:crypto']);
    expect(code).not.toContain('crypto.subtle');
  });

  it('for Node (CommonJS require): the node:crypto build', async () => {
    const { inputs } = await bundle("module.exports = require('@cardrail/sdk/webhooks');", { platform: 'node', format: 'cjs' });
    expect(inputs).toContain('dist/webhooks.node.cjs');
  });
});

describe("Node's own resolution", () => {
  it('require() gets the node:crypto CommonJS build of both entry points', () => {
    const require = createRequire(join(resolveDir, 'package.json'));
    expect(require.resolve('@cardrail/sdk/webhooks')).toBe(join(sdkDir, 'dist', 'webhooks.node.cjs'));
    expect(require.resolve('@cardrail/sdk')).toBe(join(sdkDir, 'dist', 'index.node.cjs'));
  });

  it('import gets the node:crypto ESM build of both entry points', () => {
    const script = "for (const name of ['@cardrail/sdk/webhooks', '@cardrail/sdk']) console.log(import.meta.resolve(name));";
    const resolved = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: resolveDir, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(resolved.map((url) => fileURLToPath(url))).toEqual([
      join(sdkDir, 'dist', 'webhooks.node.mjs'),
      join(sdkDir, 'dist', 'index.node.mjs'),
    ]);
  });

  it('the root re-exports the same functions as the webhooks entry of its build', () => {
    expect(distRootNodeEsm.verifySignatureSync).toBe(distWebhooksNodeEsm.verifySignatureSync);
    expect(distRootNodeEsm.WebhookVerificationError).toBe(distWebhooksNodeEsm.WebhookVerificationError);
    // The Node root's clients are the shared classes with node:crypto's unwrap (the client code is shipped once).
    expect(Object.getPrototypeOf(distRootNodeEsm.Cardrail)).toBe(distRootEsm.Cardrail);
    expect(Object.getPrototypeOf(distRootNodeEsm.CardrailUsers)).toBe(distRootEsm.CardrailUsers);
    expect(distRootNodeEsm.CardrailError).toBe(distRootEsm.CardrailError);
    expect(() => distRootEsm.verifySignatureSync({ payload: '', header: '', secret: 'whsec_x' })).toThrow(
      /await verifySignature/,
    );
  });
});

// Both builds of each entry point export exactly the same API: the node:crypto build (what Node, Bun and Deno load)
// is typed by the Web Crypto build's declarations in package.json, so a difference here would be a lie in the types.
import { describe, expectTypeOf, it } from 'vitest';

describe('the node:crypto and Web Crypto builds', () => {
  it('export the same webhook API', () => {
    expectTypeOf<typeof import('../src/webhooks/index.node.js')>().toEqualTypeOf<typeof import('../src/webhooks/index.js')>();
  });

  it('export the same package root', () => {
    expectTypeOf<typeof import('../src/index.node.js')>().toEqualTypeOf<typeof import('../src/index.js')>();
  });

  it('type the synchronous functions as synchronous', () => {
    expectTypeOf<typeof import('../src/webhooks/index.js').verifySignatureSync>().returns.toEqualTypeOf<void>();
    expectTypeOf<typeof import('../src/webhooks/index.js').constructEventSync>().returns.not.toExtend<Promise<unknown>>();
    expectTypeOf<typeof import('../src/webhooks/index.js').generateSignatureHeaderSync>().returns.toEqualTypeOf<string>();
  });
});

/**
 * node:crypto where the runtime offers it through `process.getBuiltinModule` (Node 20.16+, Bun, Deno), found at run
 * time so that no bundle for a browser or an edge runtime contains a `node:` import; undefined elsewhere, where the
 * core falls back to web standards (sha256.ts, ids.ts).
 */
type NodeCrypto = typeof import('node:crypto');

export const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;

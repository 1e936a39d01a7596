// The package root for Node, Bun and Deno (the `node` export condition): the same exports as index.ts, with the
// webhook functions on node:crypto.
export * from './client-exports.js';
export * from './webhooks/index.node.js';

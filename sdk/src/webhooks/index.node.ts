// `@cardrail/sdk/webhooks` on node:crypto: what Node, Bun and Deno resolve through the package's `node` export
// condition. Same exports as index.ts (a type test holds them equal); the types users see are index.ts's.
export {
  constructEvent,
  constructEventSync,
  generateSignatureHeader,
  generateSignatureHeaderSync,
  verifySignature,
  verifySignatureSync,
} from './node-crypto-webhooks.js';
export * from './shared-exports.js';

// `@cardrail/sdk/webhooks` on Web Crypto: what browsers, edge runtimes and workers resolve (index.node.ts is the
// build for runtimes with node:crypto, chosen by the package's `node` export condition).
/**
 * Webhook signature verification (`verifySignature`, `constructEvent`), typed events and their guards, and
 * `generateSignatureHeader` for tests. node:crypto on Node, Bun and Deno; Web Crypto elsewhere.
 *
 * @module @cardrail/sdk/webhooks
 */
export {
  constructEvent,
  constructEventSync,
  generateSignatureHeader,
  generateSignatureHeaderSync,
  verifySignature,
  verifySignatureSync,
} from './web-crypto-webhooks.js';
export * from './shared-exports.js';

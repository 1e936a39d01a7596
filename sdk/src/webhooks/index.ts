// `@cardrail/sdk/webhooks` on Web Crypto: what browsers, edge runtimes and workers resolve (index.node.ts is the
// build for runtimes with node:crypto, chosen by the package's `node` export condition).
export {
  constructEvent,
  constructEventSync,
  generateSignatureHeader,
  generateSignatureHeaderSync,
  verifySignature,
  verifySignatureSync,
} from './web-crypto-webhooks.js';
export * from './shared-exports.js';

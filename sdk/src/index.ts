// The package root on Web Crypto: the client and the webhook functions, for runtimes without node:crypto.
export * from './client-exports.js';
export * from './webhooks/index.js';

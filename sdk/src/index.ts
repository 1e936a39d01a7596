// The package root on Web Crypto: the client and the webhook functions, for runtimes without node:crypto.
/**
 * Typed clients of both API variants (`Cardrail`, `CardrailUsers`) with retries, idempotency, pagination and typed
 * errors, and the webhook functions of `@cardrail/sdk/webhooks`.
 *
 * @module @cardrail/sdk
 */
export * from './client-exports.js';
export * from './webhooks/index.js';

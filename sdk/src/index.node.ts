// The package root for Node, Bun and Deno (the `node` export condition): index.ts's exports with the webhook functions
// on node:crypto, and clients whose `webhooks.unwrap` is handed node:crypto's HMAC too. The two clients here are the
// shared classes with only that difference (subclasses that add nothing to the type), so that the client code is not
// shipped twice; their declarations are index.ts's.
import { Cardrail as SharedCardrail } from './cardrail.js';
import { CardrailUsers as SharedCardrailUsers } from './cardrail-users.js';
import type { ClientOptions } from './core/client-options.js';
import { type BuildClientOptions, WEBHOOK_HMAC } from './resources/webhooks.js';
import { nodeCryptoHmac } from './webhooks/node-crypto.js';

export * from './client-exports.js';
export * from './webhooks/index.node.js';

function onNodeCrypto(options?: ClientOptions): BuildClientOptions {
  return { ...options, [WEBHOOK_HMAC]: nodeCryptoHmac };
}

export class Cardrail extends SharedCardrail {
  constructor(options?: ClientOptions) {
    super(onNodeCrypto(options));
  }
}

export class CardrailUsers extends SharedCardrailUsers {
  constructor(options?: ClientOptions) {
    super(onNodeCrypto(options));
  }
}

// The package root for Node, Bun and Deno (the `node` export condition): the same exports as index.ts, with the
// webhook functions on node:crypto, and clients whose `webhooks.unwrap` is node:crypto's too. The two clients here
// are the shared classes with only that difference (subclasses that add nothing to the type), so that the client code
// is not shipped twice; their declarations are index.ts's.
import { Cardrail as SharedCardrail } from './cardrail.js';
import { CardrailUsers as SharedCardrailUsers } from './cardrail-users.js';
import type { ClientOptions } from './core/client-options.js';
import { useUnwrap } from './resources/webhooks.js';
import { unwrap } from './webhooks/index.node.js';

export * from './client-exports.js';
export * from './webhooks/index.node.js';

export class Cardrail extends SharedCardrail {
  constructor(options?: ClientOptions) {
    super(options);
    useUnwrap(this.webhooks, unwrap);
  }
}

export class CardrailUsers extends SharedCardrailUsers {
  constructor(options?: ClientOptions) {
    super(options);
    useUnwrap(this.webhooks, unwrap);
  }
}

// Every implementation of `@cardrail/sdk/webhooks`: both builds (node:crypto and Web Crypto), from the sources and
// from what users install (dist/, ESM and CommonJS). Tests run the same vectors through each of them.
import { createRequire } from 'node:module';
import * as webCryptoDistEsm from '../../dist/webhooks.mjs';
import * as nodeCryptoDistEsm from '../../dist/webhooks.node.mjs';
import * as webCryptoSource from '../../src/webhooks/index.js';
import * as nodeCryptoSource from '../../src/webhooks/index.node.js';

export type WebhooksModule = typeof webCryptoSource;

export interface WebhookImplementation {
  readonly name: string;
  readonly crypto: 'node:crypto' | 'Web Crypto';
  readonly module: WebhooksModule;
}

const require = createRequire(import.meta.url);

export const IMPLEMENTATIONS: readonly WebhookImplementation[] = [
  { name: 'node:crypto, source', crypto: 'node:crypto', module: nodeCryptoSource },
  { name: 'Web Crypto, source', crypto: 'Web Crypto', module: webCryptoSource },
  { name: 'node:crypto, dist ESM', crypto: 'node:crypto', module: nodeCryptoDistEsm },
  { name: 'Web Crypto, dist ESM', crypto: 'Web Crypto', module: webCryptoDistEsm },
  { name: 'node:crypto, dist CJS', crypto: 'node:crypto', module: require('../../dist/webhooks.node.cjs') as WebhooksModule },
  { name: 'Web Crypto, dist CJS', crypto: 'Web Crypto', module: require('../../dist/webhooks.cjs') as WebhooksModule },
];

export const WITH_SYNC = IMPLEMENTATIONS.filter((implementation) => implementation.crypto === 'node:crypto');
export const WITHOUT_SYNC = IMPLEMENTATIONS.filter((implementation) => implementation.crypto === 'Web Crypto');

/** What a call did, in a form two implementations can be compared by: its result, or its error's kind and text. */
export type Outcome = { readonly returned: unknown } | Thrown;
type Thrown = { readonly threw: string; readonly code?: unknown; readonly message: string; readonly details?: unknown };

function thrown(error: unknown): Thrown {
  if (!(error instanceof Error)) return { threw: `non-Error ${String(error)}`, message: '' };
  const { code, details } = error as Error & { code?: unknown; details?: unknown };
  return { threw: error.name, code, message: error.message, details };
}

/** Outcome of an asynchronous call: it must return a promise, even for bad input (a rejection, never a throw). */
export async function asyncOutcome(call: () => unknown): Promise<Outcome> {
  let promise: unknown;
  try {
    promise = call();
  } catch (error) {
    return { threw: `synchronously: ${thrown(error).message}`, message: '' };
  }
  if (!(promise instanceof Promise)) return { threw: 'returned no promise', message: '' };
  return promise.then(
    (returned: unknown) => ({ returned }),
    (error: unknown) => thrown(error),
  );
}

/** Outcome of a synchronous call: it must return a plain value (no promise) or throw. */
export function syncOutcome(call: () => unknown): Outcome {
  try {
    const returned = call();
    if (returned instanceof Promise) return { threw: 'returned a promise', message: '' };
    return { returned };
  } catch (error) {
    return thrown(error);
  }
}

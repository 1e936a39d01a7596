import { CardrailError } from '../errors.js';

/**
 * What the synchronous functions throw where the build has no synchronous HMAC (browsers, edge runtimes, workers:
 * Web Crypto's `crypto.subtle` is asynchronous only). A `CardrailError`, not a `WebhookVerificationError`: the
 * delivery may be genuine, and a receiver that answers verification errors with 400 must not turn a deployment
 * mistake into rejected webhooks.
 */
export function syncUnavailable(name: `${string}Sync`): CardrailError {
  return new CardrailError({
    code: 'webhook_sync_unavailable',
    message:
      `${name}() needs node:crypto (Node, Bun, Deno). This build, for browsers, edge runtimes and workers, has only ` +
      `Web Crypto, which is async: use \`await ${name.slice(0, -4)}(...)\` instead.`,
  });
}

// `@cardrail/sdk/webhooks` on Web Crypto: what browsers, edge runtimes and workers resolve (index.node.ts is the
// build for runtimes with node:crypto, chosen by the package's `node` export condition). Its declarations and their
// documentation are the package's types for both builds.
/**
 * Webhook signature verification (`verifySignature`, `constructEvent`), typed events and their guards, and
 * `generateSignatureHeader` for tests. node:crypto on Node, Bun and Deno; Web Crypto elsewhere.
 *
 * @module @cardrail/sdk/webhooks
 */
import { CardrailError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import { parseEvent } from './event-body.js';
import {
  checkedDelivery,
  type GenerateSignatureHeaderParams,
  signatureHeader,
  type VerifySignatureParams,
  verifiedPayload,
} from './signature-checks.js';
import { webCryptoHexDigests } from './web-crypto-hmac.js';

/**
 * Resolves when one `v1` signature matches one secret within the tolerance; otherwise rejects with
 * `WebhookVerificationError`. Runs on every runtime: node:crypto where the package resolves its Node build (Node,
 * Bun, Deno), Web Crypto elsewhere (browsers, edge runtimes, workers).
 *
 * @example
 * ```ts
 * // In a fetch-style handler (Next.js, Hono, Workers): verify the raw body before trusting it.
 * await verifySignature({
 *   payload: await request.text(),
 *   header: request.headers.get('Cardrail-Signature'),
 *   secret: process.env.CARDRAIL_WEBHOOK_SECRET!,
 * });
 * ```
 */
export async function verifySignature(params: VerifySignatureParams): Promise<void> {
  await verifiedPayload(webCryptoHexDigests, checkedDelivery(params));
}

/**
 * Synchronous `verifySignature`: returns when the signature is valid, throws `WebhookVerificationError` otherwise.
 * Only where a synchronous HMAC exists: Node, Bun and Deno (the package's Node build, on node:crypto). On browsers,
 * edge runtimes and workers it throws a `CardrailError` with code `webhook_sync_unavailable`, whatever the input:
 * use `await verifySignature(...)` there.
 */
export function verifySignatureSync(_params: VerifySignatureParams): void {
  throw syncUnavailable('verifySignatureSync');
}

/**
 * Verifies the signature, then parses the body into a `CardrailEvent`, a union discriminated by `type`. Runs on
 * every runtime.
 *
 * @example
 * ```ts
 * const event = await constructEvent({ payload: rawBody, header: signatureHeader, secret: webhookSecret });
 * switch (event.type) {
 *   case 'card.frozen':
 *     console.log(event.data.cardId, event.data.reason); // typed per event type
 *     break;
 * }
 * ```
 */
export async function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(await verifiedPayload(webCryptoHexDigests, checkedDelivery(params)));
}

/**
 * Synchronous `constructEvent`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge runtimes and
 * workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use `await constructEvent(...)` there.
 */
export function constructEventSync(_params: VerifySignatureParams): CardrailEvent {
  throw syncUnavailable('constructEventSync');
}

/**
 * Builds the `Cardrail-Signature` value for a payload: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Runs on every
 * runtime.
 */
export function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  return signatureHeader(webCryptoHexDigests, params);
}

/**
 * Synchronous `generateSignatureHeader`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge
 * runtimes and workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use
 * `await generateSignatureHeader(...)` there.
 */
export function generateSignatureHeaderSync(_params: GenerateSignatureHeaderParams): string {
  throw syncUnavailable('generateSignatureHeaderSync');
}

export * from './webhook-exports.js';

/**
 * What the synchronous functions throw in this build (browsers, edge runtimes, workers: Web Crypto's `crypto.subtle`
 * is asynchronous only). A `CardrailError`, not a `WebhookVerificationError`: the delivery may be genuine, and a
 * receiver that answers verification errors with 400 must not turn a deployment mistake into rejected webhooks.
 */
function syncUnavailable(name: `${string}Sync`): CardrailError {
  return new CardrailError({
    code: 'webhook_sync_unavailable',
    message:
      `${name}() needs node:crypto (Node, Bun, Deno). This build, for browsers, edge runtimes and workers, has only ` +
      `Web Crypto, which is async: use \`await ${name.slice(0, -4)}(...)\` instead.`,
  });
}

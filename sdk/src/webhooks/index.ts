// `@cardrail/sdk/webhooks` on Web Crypto: what browsers, edge runtimes and workers resolve (index.node.ts is the
// build for runtimes with node:crypto, chosen by the package's `node` export condition). Its declarations and their
// documentation are the package's types for both builds.
/**
 * Webhook verification of both signature schemes a delivery carries (`Cardrail-Signature` and Standard Webhooks):
 * `unwrap`, `constructEvent`, `verifySignature`; typed events and their guards; `generateWebhookHeaders` and
 * `generateSignatureHeader` for tests. node:crypto on Node, Bun and Deno; Web Crypto elsewhere.
 *
 * @module @cardrail/sdk/webhooks
 */
import { CardrailError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import {
  checkedDeliveries,
  formatWebhookHeaders,
  type GenerateSignatureHeaderParams,
  type GenerateWebhookHeadersParams,
  signingInput,
  standardWebhooksInput,
  type VerificationTimeOptions,
  type VerifySignatureParams,
  type WebhookHeaders,
} from './delivery.js';
import { formatSignatureHeader } from './schemes.js';
import { type RawPayload, verifiedPayload, type WebhookSecret } from './signature-checks.js';
import { webCryptoConstructEvent, webCryptoDigests } from './web-crypto.js';

/**
 * Verifies a delivery and returns its typed event: the short form of `constructEvent`, with the request's body, its
 * headers (either signature scheme, or both, read from them) and the endpoint's secret. Rejects with
 * `WebhookVerificationError` when the delivery is not genuine. Runs on every runtime.
 *
 * @example
 * ```ts
 * // A fetch-style handler (Next.js route handler, Hono, Workers): the raw body, then the headers as they arrived.
 * const event = await unwrap(await request.text(), request.headers, process.env.CARDRAIL_WEBHOOK_SECRET!);
 * ```
 */
export function unwrap(
  body: RawPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerificationTimeOptions = {},
): Promise<CardrailEvent> {
  return constructEvent({ ...options, payload: body, headers, secret });
}

/**
 * Resolves when the delivery's signature holds: one `v1` signature matches one secret within the tolerance, for
 * each scheme the request carries (`headers`), or for `Cardrail-Signature` alone (`header`); otherwise rejects with
 * `WebhookVerificationError`. Runs on every runtime: node:crypto where the package resolves its Node build (Node,
 * Bun, Deno), Web Crypto elsewhere (browsers, edge runtimes, workers).
 *
 * @example
 * ```ts
 * // In a fetch-style handler (Next.js, Hono, Workers): verify the raw body before trusting it.
 * await verifySignature({
 *   payload: await request.text(),
 *   headers: request.headers,
 *   secret: process.env.CARDRAIL_WEBHOOK_SECRET!,
 * });
 * ```
 */
export async function verifySignature(params: VerifySignatureParams): Promise<void> {
  await verifiedPayload(webCryptoDigests, checkedDeliveries(params));
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
 * const event = await constructEvent({ payload: rawBody, headers: requestHeaders, secret: webhookSecret });
 * switch (event.type) {
 *   case 'card.frozen':
 *     console.log(event.data.cardId, event.data.reason); // typed per event type
 *     break;
 * }
 * ```
 */
export function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return webCryptoConstructEvent(params);
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
export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  const content = signingInput(params);
  return formatSignatureHeader(content.timestamp, await webCryptoDigests(content));
}

/**
 * Synchronous `generateSignatureHeader`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge
 * runtimes and workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use
 * `await generateSignatureHeader(...)` there.
 */
export function generateSignatureHeaderSync(_params: GenerateSignatureHeaderParams): string {
  throw syncUnavailable('generateSignatureHeaderSync');
}

/**
 * Every signature header of a delivery, as the API sends them: `Cardrail-Signature`, and the Standard Webhooks
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` (unless `standardWebhooks: false`), one signature per
 * secret in each. For tests that post deliveries to a receiver. Runs on every runtime.
 *
 * @example
 * ```ts
 * const body = JSON.stringify(event);
 * const headers = await generateWebhookHeaders({ payload: body, secret, id: 'msg_1' });
 * await fetch(receiverUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
 * ```
 */
export async function generateWebhookHeaders(params: GenerateWebhookHeadersParams): Promise<Record<string, string>> {
  const content = signingInput(params);
  const standard = standardWebhooksInput(params, content);
  const [cardrail, standardDigests] = await Promise.all([webCryptoDigests(content), standard && webCryptoDigests(standard)]);
  return formatWebhookHeaders(content.timestamp, cardrail, standard && { id: standard.id, digests: standardDigests ?? [] });
}

/**
 * Synchronous `generateWebhookHeaders`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge
 * runtimes and workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use
 * `await generateWebhookHeaders(...)` there.
 */
export function generateWebhookHeadersSync(_params: GenerateWebhookHeadersParams): Record<string, string> {
  throw syncUnavailable('generateWebhookHeadersSync');
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

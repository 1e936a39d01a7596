// `@cardrail/sdk/webhooks` on Web Crypto (browsers, edge runtimes, workers), and the types of both builds.
/**
 * Webhook verification of both signature schemes a delivery carries (`Cardrail-Signature` and Standard Webhooks), typed
 * events and their guards, and signing functions for tests: node:crypto on Node, Bun and Deno, Web Crypto elsewhere.
 *
 * @module @cardrail/sdk/webhooks
 */
import { webCryptoHmac as hmac } from './web-crypto.js';
import * as make from './webhook-functions.js';

// One pure call per function, so that a bundle keeps only the functions it imports.

/**
 * Verifies a delivery and returns its typed event: `constructEvent` with the request's raw body, its headers (either
 * signature scheme, or both) and the endpoint's secret. Rejects with `WebhookVerificationError`. @function
 * @example
 * ```ts
 * const event = await unwrap(await request.text(), request.headers, process.env.CARDRAIL_WEBHOOK_SECRET!);
 * ```
 */
export const unwrap = /* @__PURE__ */ make.unwrapOn(hmac);
/**
 * Resolves when one `v1` signature matches one secret within the tolerance, for each scheme the request's `headers`
 * carry (or `Cardrail-Signature` alone: `header`); otherwise rejects with `WebhookVerificationError`. @function
 */
export const verifySignature = /* @__PURE__ */ make.asyncOn(hmac, make.verification);
/** `verifySignature` on Node, Bun and Deno (node:crypto); elsewhere it throws `webhook_sync_unavailable`. @function */
export const verifySignatureSync = /* @__PURE__ */ make.syncOn(hmac, 'verifySignatureSync', make.verification);
/**
 * Verifies the signature, then parses the body into a `CardrailEvent`, a union discriminated by `type`. @function
 * @example
 * ```ts
 * const event = await constructEvent({ payload: rawBody, headers: request.headers, secret: webhookSecret });
 * if (event.type === 'card.frozen') console.log(event.data.cardId, event.data.reason); // typed per event type
 * ```
 */
export const constructEvent = /* @__PURE__ */ make.asyncOn(hmac, make.construction);
/** `constructEvent` on Node, Bun and Deno (node:crypto); elsewhere it throws `webhook_sync_unavailable`. @function */
export const constructEventSync = /* @__PURE__ */ make.syncOn(hmac, 'constructEventSync', make.construction);
/** The `Cardrail-Signature` value for a payload: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. @function */
export const generateSignatureHeader = /* @__PURE__ */ make.asyncOn(hmac, make.signatureHeader);
/** `generateSignatureHeader` on Node, Bun and Deno (node:crypto); elsewhere it throws `webhook_sync_unavailable`. @function */
export const generateSignatureHeaderSync = /* @__PURE__ */ make.syncOn(hmac, 'generateSignatureHeaderSync', make.signatureHeader);
/**
 * Every signature header of a delivery, as the API sends them: `Cardrail-Signature`, and the Standard Webhooks
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` (unless `standardWebhooks: false`), one signature per
 * secret in each. For tests that post deliveries to a receiver. @function
 * @example
 * ```ts
 * const headers = await generateWebhookHeaders({ payload: body, secret, id: 'msg_1' });
 * await fetch(receiverUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
 * ```
 */
export const generateWebhookHeaders = /* @__PURE__ */ make.asyncOn(hmac, make.webhookHeaders);
/** `generateWebhookHeaders` on Node, Bun and Deno (node:crypto); elsewhere it throws `webhook_sync_unavailable`. @function */
export const generateWebhookHeadersSync = /* @__PURE__ */ make.syncOn(hmac, 'generateWebhookHeadersSync', make.webhookHeaders);

export type * from './types.js';
export { parseSignatureHeader, parseStandardWebhooksHeaders, SIGNATURE_HEADER, STANDARD_WEBHOOKS_HEADERS } from './schemes.js';
export { DEFAULT_TOLERANCE_SECONDS } from './signature-checks.js';
export { WebhookVerificationError, type WebhookVerificationErrorCode } from '../errors.js';
export * from '../events/index.js';

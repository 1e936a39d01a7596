// The webhook functions on Web Crypto: the build for browsers, edge runtimes and workers (every runtime that does not
// resolve the package's `node` export condition). Its signatures and documentation are the package's: the node:crypto
// build (node-crypto-webhooks.ts) has the same exports, which a type test enforces, and shares these declarations.
import type { CardrailEvent } from '../events/cardrail-event.js';
import { checkedDelivery, matchesAnySignature, signatureMismatch, type VerifySignatureParams } from './delivery.js';
import { parseEvent } from './event-body.js';
import { formatSignatureHeader } from './signature-header.js';
import { signingInput, type GenerateSignatureHeaderParams } from './signing-input.js';
import { syncUnavailable } from './sync-unavailable.js';
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
  await verifiedPayload(params);
}

/** The checked body once its signature is verified. */
async function verifiedPayload(params: VerifySignatureParams): Promise<string | Uint8Array> {
  const { payload, secrets, timestamp, signatures } = checkedDelivery(params);
  // One HMAC per secret, compared with every v1 entry: one trip to the runtime's crypto per secret instead of one
  // per (secret, signature) pair, which is most of the time spent.
  for (const digest of await webCryptoHexDigests(secrets, timestamp, payload)) {
    if (matchesAnySignature(digest, signatures)) return payload;
  }
  throw signatureMismatch();
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
 * Verifies the signature, then parses the body into a `CardrailEvent`, a union discriminated by `type`. Runs on every
 * runtime.
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
  return parseEvent(await verifiedPayload(params));
}

/**
 * Synchronous `constructEvent`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge runtimes and
 * workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use `await constructEvent(...)` there.
 */
export function constructEventSync(_params: VerifySignatureParams): CardrailEvent {
  throw syncUnavailable('constructEventSync');
}

/** Builds the `Cardrail-Signature` value for a payload: `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Runs on every runtime. */
export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  const { payload, secrets, timestamp } = signingInput(params);
  return formatSignatureHeader(timestamp, await webCryptoHexDigests(secrets, timestamp, payload));
}

/**
 * Synchronous `generateSignatureHeader`, where a synchronous HMAC exists: Node, Bun and Deno. On browsers, edge
 * runtimes and workers it throws a `CardrailError` with code `webhook_sync_unavailable`: use
 * `await generateSignatureHeader(...)` there.
 */
export function generateSignatureHeaderSync(_params: GenerateSignatureHeaderParams): string {
  throw syncUnavailable('generateSignatureHeaderSync');
}

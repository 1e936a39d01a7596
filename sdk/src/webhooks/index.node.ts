// `@cardrail/sdk/webhooks` on node:crypto: what Node, Bun and Deno resolve through the package's `node` export
// condition. Same exports as index.ts (a type test holds them equal), whose declarations are the types users see.
// node:crypto's HMAC is synchronous, so every function works; the asynchronous ones are async functions around the
// synchronous code, so that a throw (bad input) becomes a rejection, as on Web Crypto.
import type { CardrailEvent } from '../events/cardrail-event.js';
import {
  checkedDeliveries,
  formatWebhookHeaders,
  type GenerateSignatureHeaderParams,
  type GenerateWebhookHeadersParams,
  parseEvent,
  signingInput,
  standardWebhooksInput,
  type VerificationTimeOptions,
  type VerifySignatureParams,
  type WebhookHeaders,
} from './delivery.js';
import { nodeCryptoDigest } from './node-crypto.js';
import { formatSignatureHeader } from './schemes.js';
import { type RawPayload, type SignedContent, verifiedPayloadSync, type WebhookSecret } from './signature-checks.js';

export async function unwrap(
  body: RawPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options: VerificationTimeOptions = {},
): Promise<CardrailEvent> {
  return constructEventSync({ ...options, payload: body, headers, secret });
}

export async function verifySignature(params: VerifySignatureParams): Promise<void> {
  verifiedPayloadSync(nodeCryptoDigest, checkedDeliveries(params));
}

export function verifySignatureSync(params: VerifySignatureParams): void {
  verifiedPayloadSync(nodeCryptoDigest, checkedDeliveries(params));
}

export async function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(verifiedPayloadSync(nodeCryptoDigest, checkedDeliveries(params)));
}

export function constructEventSync(params: VerifySignatureParams): CardrailEvent {
  return parseEvent(verifiedPayloadSync(nodeCryptoDigest, checkedDeliveries(params)));
}

export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  return generateSignatureHeaderSync(params);
}

export function generateSignatureHeaderSync(params: GenerateSignatureHeaderParams): string {
  const content = signingInput(params);
  return formatSignatureHeader(content.timestamp, digestsOf(content));
}

export async function generateWebhookHeaders(params: GenerateWebhookHeadersParams): Promise<Record<string, string>> {
  return generateWebhookHeadersSync(params);
}

export function generateWebhookHeadersSync(params: GenerateWebhookHeadersParams): Record<string, string> {
  const content = signingInput(params);
  const standard = standardWebhooksInput(params, content);
  return formatWebhookHeaders(
    content.timestamp,
    digestsOf(content),
    standard && { id: standard.id, digests: digestsOf(standard) },
  );
}

function digestsOf({ secrets, prefix, payload, scheme }: SignedContent): string[] {
  return secrets.map((secret) => nodeCryptoDigest(secret, prefix, payload, scheme));
}

export * from './webhook-exports.js';

// `@cardrail/sdk/webhooks` on node:crypto: what Node, Bun and Deno resolve through the package's `node` export
// condition. Same exports as index.ts (a type test holds them equal), whose declarations are the types users see.
// node:crypto's HMAC is synchronous, so every function works; the asynchronous ones are async functions around the
// synchronous code, so that a throw (bad input) becomes a rejection, as on Web Crypto.
import type { CardrailEvent } from '../events/cardrail-event.js';
import { parseEvent } from './event-body.js';
import { nodeCryptoHexDigest } from './node-crypto-hmac.js';
import {
  checkedDelivery,
  type GenerateSignatureHeaderParams,
  signatureHeaderSync,
  type VerifySignatureParams,
  verifiedPayloadSync,
} from './signature-checks.js';

export async function verifySignature(params: VerifySignatureParams): Promise<void> {
  verifiedPayloadSync(nodeCryptoHexDigest, checkedDelivery(params));
}

export function verifySignatureSync(params: VerifySignatureParams): void {
  verifiedPayloadSync(nodeCryptoHexDigest, checkedDelivery(params));
}

export async function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(verifiedPayloadSync(nodeCryptoHexDigest, checkedDelivery(params)));
}

export function constructEventSync(params: VerifySignatureParams): CardrailEvent {
  return parseEvent(verifiedPayloadSync(nodeCryptoHexDigest, checkedDelivery(params)));
}

export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  return signatureHeaderSync(nodeCryptoHexDigest, params);
}

export function generateSignatureHeaderSync(params: GenerateSignatureHeaderParams): string {
  return signatureHeaderSync(nodeCryptoHexDigest, params);
}

export * from './webhook-exports.js';

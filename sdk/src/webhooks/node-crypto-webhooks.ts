// The webhook functions on node:crypto: the build for runtimes that resolve the package's `node` export condition
// (Node, Bun, Deno). Same exports, parameters, results and errors as the Web Crypto build, whose declarations and
// documentation (web-crypto-webhooks.ts) both builds share; here the HMAC is synchronous, so every function has a
// working synchronous form and the asynchronous ones are the synchronous ones behind a promise.
import type { CardrailEvent } from '../events/cardrail-event.js';
import { checkedDelivery, matchesAnySignature, signatureMismatch, type VerifySignatureParams } from './delivery.js';
import { parseEvent } from './event-body.js';
import { nodeHexDigest } from './node-crypto-hmac.js';
import { formatSignatureHeader } from './signature-header.js';
import { signingInput, type GenerateSignatureHeaderParams } from './signing-input.js';

/** The checked body once its signature is verified. */
function verifiedPayload(params: VerifySignatureParams): string | Uint8Array {
  const { payload, secrets, timestamp, signatures } = checkedDelivery(params);
  // One HMAC per secret, compared with every v1 entry; the first secret that matches ends the search.
  for (const secret of secrets) {
    if (matchesAnySignature(nodeHexDigest(secret, timestamp, payload), signatures)) return payload;
  }
  throw signatureMismatch();
}

export function verifySignatureSync(params: VerifySignatureParams): void {
  verifiedPayload(params);
}

// An async function, not Promise.resolve(): a synchronous throw must become a rejection, as on Web Crypto.
export async function verifySignature(params: VerifySignatureParams): Promise<void> {
  verifiedPayload(params);
}

export function constructEventSync(params: VerifySignatureParams): CardrailEvent {
  return parseEvent(verifiedPayload(params));
}

export async function constructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(verifiedPayload(params));
}

export function generateSignatureHeaderSync(params: GenerateSignatureHeaderParams): string {
  const { payload, secrets, timestamp } = signingInput(params);
  return formatSignatureHeader(
    timestamp,
    secrets.map((secret) => nodeHexDigest(secret, timestamp, payload)),
  );
}

export async function generateSignatureHeader(params: GenerateSignatureHeaderParams): Promise<string> {
  return generateSignatureHeaderSync(params);
}

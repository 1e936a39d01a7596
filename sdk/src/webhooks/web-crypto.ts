// The Web Crypto provider: HMAC digests for both schemes, and constructEvent on them, which a client's
// `webhooks.unwrap` imports on first use without the rest of the webhooks module.
import { bytesToBase64 } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import { bytesToHex } from '../hex.js';
import { checkedDeliveries, parseEvent, type VerifySignatureParams } from './delivery.js';
import { standardWebhooksKey } from './schemes.js';
import { type Digests, type SignatureScheme, verifiedPayload } from './signature-checks.js';

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const utf8 = /* @__PURE__ */ new TextEncoder();

/**
 * Imported HMAC keys, per scheme and secret. Importing costs about as much as signing itself on some runtimes (WebIDL
 * checks, a trip to a thread pool), and a receiver verifies every delivery with the same one or two secrets, so each
 * is imported once. The caches hold the secret strings the caller passes on every call (usually straight from the
 * environment), so they keep nothing alive that the application does not already hold; the keys are non-extractable.
 * Pending imports are shared by the calls made meanwhile.
 */
const keys: Record<SignatureScheme, BoundedCache<Promise<CryptoKey>>> = {
  'Cardrail-Signature': /* @__PURE__ */ new BoundedCache(16),
  'Standard Webhooks': /* @__PURE__ */ new BoundedCache(16),
};

/** Cardrail-Signature keys with the whole secret string, `whsec_` prefix included; Standard Webhooks with its bytes. */
function hmacSha256Key(secret: string, scheme: SignatureScheme): Promise<CryptoKey> {
  const cache = keys[scheme];
  return cache.get(secret, () => {
    const material = scheme === 'Cardrail-Signature' ? utf8.encode(secret) : standardWebhooksKey(secret);
    const key = crypto.subtle.importKey('raw', material as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    // A failed import (no Web Crypto on this runtime) is not remembered: the next call tries again.
    key.catch(() => cache.forget(secret, key));
    return key;
  });
}

/** How many keys of a scheme are cached; for tests of the bound. */
export function cachedHmacKeyCount(scheme: SignatureScheme = 'Cardrail-Signature'): number {
  return keys[scheme].size;
}

/** The prefix followed by the body bytes, untouched (a body need not be valid UTF-8 to be verified). */
function signedBytes(prefix: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  // A string body is encoded once, together with its ASCII prefix, instead of being encoded and then copied.
  if (typeof payload === 'string') return utf8.encode(prefix + payload);
  const head = utf8.encode(prefix);
  const content = new Uint8Array(head.length + payload.length);
  content.set(head, 0);
  content.set(payload, head.length);
  return content;
}

/**
 * HMAC-SHA256 with Web Crypto, what browsers, edge runtimes and workers have: asynchronous only. The signed content
 * is built once for all secrets; the secrets' HMACs run concurrently, one trip to the runtime's crypto per secret
 * (the cost that dominates), each compared with every signature of the header.
 */
export const webCryptoDigests: Digests = async ({ secrets, prefix, payload, scheme }) => {
  const content = signedBytes(prefix, payload);
  const digests = await Promise.all(
    secrets.map(async (secret) => new Uint8Array(await crypto.subtle.sign('HMAC', await hmacSha256Key(secret, scheme), content))),
  );
  return digests.map(scheme === 'Cardrail-Signature' ? bytesToHex : bytesToBase64);
};

export async function webCryptoConstructEvent(params: VerifySignatureParams): Promise<CardrailEvent> {
  return parseEvent(await verifiedPayload(webCryptoDigests, checkedDeliveries(params)));
}

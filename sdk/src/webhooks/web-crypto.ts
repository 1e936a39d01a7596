// Web Crypto's HMAC, what browsers, edge runtimes and workers get: asynchronous only. A delivery's content is built
// once for all secrets, whose HMACs run concurrently (one trip to the runtime's crypto each, the cost that dominates).
import { bytesToBase64 } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import { bytesToHex } from '../hex.js';
import { standardWebhooksKey } from './schemes.js';
import type { SignatureScheme } from './types.js';
import type { HmacProvider } from './webhook-functions.js';

// Pure: a bundle that imports only the API client drops it along with the webhook code.
const utf8 = /* @__PURE__ */ new TextEncoder();

/**
 * Imported keys per scheme and secret: an import costs about as much as a signature on some runtimes, and a receiver
 * verifies every delivery with the same one or two secrets. Pending imports are shared; keys are non-extractable.
 */
const keys: Record<SignatureScheme, BoundedCache<Promise<CryptoKey>>> = {
  'Cardrail-Signature': /* @__PURE__ */ new BoundedCache(16),
  'Standard Webhooks': /* @__PURE__ */ new BoundedCache(16),
};

/** How many keys of a scheme are cached; for tests of the bound. */
export function cachedHmacKeyCount(scheme: SignatureScheme = 'Cardrail-Signature'): number {
  return keys[scheme].size;
}

/** Cardrail-Signature keys with the whole secret string, `whsec_` prefix included; Standard Webhooks with its bytes. */
function hmacKey(secret: string, scheme: SignatureScheme): Promise<CryptoKey> {
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

/** The prefix, then the body bytes untouched (a body need not be valid UTF-8); a string body is encoded with it. */
function signedBytes(prefix: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof payload === 'string') return utf8.encode(prefix + payload);
  const head = utf8.encode(prefix);
  const content = new Uint8Array(head.length + payload.length);
  content.set(head, 0);
  content.set(payload, head.length);
  return content;
}

export const webCryptoHmac: HmacProvider = {
  async digests({ secrets, prefix, payload, scheme }) {
    const content = signedBytes(prefix, payload);
    const signed = await Promise.all(
      secrets.map(async (secret) => crypto.subtle.sign('HMAC', await hmacKey(secret, scheme), content)),
    );
    return signed.map((digest) => (scheme === 'Cardrail-Signature' ? bytesToHex : bytesToBase64)(new Uint8Array(digest)));
  },
};

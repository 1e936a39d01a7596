// Web Crypto's HMAC (browsers, edge runtimes, workers): asynchronous only; one content's secrets are signed at once.
import { bytesToBase64 } from '../base64.js';
import { BoundedCache } from '../core/bounded-cache.js';
import { bytesToHex } from '../hex.js';
import { standardWebhooksKey } from './schemes.js';
import type { SignatureScheme } from './types.js';
import type { HmacProvider } from './webhook-functions.js';

const utf8 = /* @__PURE__ */ new TextEncoder();

// Imported keys, per scheme and secret (an import costs about what a signature does on some runtimes, and a receiver
// verifies every delivery with the same one or two secrets); pending imports are shared, keys are non-extractable.
const keys = /* @__PURE__ */ new BoundedCache<Promise<CryptoKey>>(16);
/** How many keys are cached; for tests of the bound. */
export const cachedHmacKeyCount = (): number => keys.size;

/** Cardrail-Signature keys with the whole secret string, `whsec_` prefix included; Standard Webhooks with its bytes. */
function hmacKey(secret: string, scheme: SignatureScheme): Promise<CryptoKey> {
  const cacheKey = `${scheme}:${secret}`;
  return keys.get(cacheKey, () => {
    const material = scheme === 'Cardrail-Signature' ? utf8.encode(secret) : standardWebhooksKey(secret);
    const key = crypto.subtle.importKey('raw', material as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    // A failed import (no Web Crypto on this runtime) is not remembered: the next call tries again.
    key.catch(() => keys.forget(cacheKey, key));
    return key;
  });
}

/** The prefix, then the body's bytes untouched (a body need not be valid UTF-8); a string body is encoded with it. */
function signedBytes(prefix: string, payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof payload === 'string') return utf8.encode(prefix + payload);
  const head = utf8.encode(prefix);
  const content = new Uint8Array(head.length + payload.length);
  content.set(head);
  content.set(payload, head.length);
  return content;
}

export const webCryptoHmac: HmacProvider = {
  async digests({ secrets, prefix, payload, scheme }) {
    const content = signedBytes(prefix, payload);
    const sign = async (secret: string) => crypto.subtle.sign('HMAC', await hmacKey(secret, scheme), content);
    const encode = scheme === 'Cardrail-Signature' ? bytesToHex : bytesToBase64;
    return (await Promise.all(secrets.map(sign))).map((digest) => encode(new Uint8Array(digest)));
  },
};

import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { BoundedCache } from '../core/bounded-cache.js';
import type { Digest } from './signature-checks.js';
import { standardWebhooksKey } from './schemes.js';

/**
 * Standard Webhooks keys as KeyObjects, one per secret: createHmac keys with a KeyObject as fast as with a string,
 * and about five times slower with bytes (it makes a key of them on every call).
 */
const standardKeys = /* @__PURE__ */ new BoundedCache<KeyObject>(16);

/**
 * HMAC-SHA256 with node:crypto: synchronous, on the calling thread, so every webhook function of the Node build has
 * a working synchronous form. The body is fed to the HMAC as it is (a Buffer or string is neither copied nor
 * concatenated first). Cardrail-Signature keys with the whole secret string, `whsec_` prefix included, and writes hex;
 * Standard Webhooks keys with the secret's decoded bytes and writes base64, as with Web Crypto.
 */
export const nodeCryptoDigest: Digest = (secret, prefix, payload, scheme) =>
  scheme === 'Cardrail-Signature'
    ? createHmac('sha256', secret).update(prefix).update(payload).digest('hex')
    : createHmac(
        'sha256',
        standardKeys.get(secret, () => createSecretKey(standardWebhooksKey(secret))),
      )
        .update(prefix)
        .update(payload)
        .digest('base64');

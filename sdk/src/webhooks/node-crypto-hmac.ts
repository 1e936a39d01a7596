import { createHmac } from 'node:crypto';
import type { Digest } from './signature-checks.js';
import { standardWebhooksKey } from './standard-webhooks.js';

/**
 * HMAC-SHA256 with node:crypto: synchronous, on the calling thread, so every webhook function of the Node build has
 * a working synchronous form. The body is fed to the HMAC as it is (a Buffer or string is neither copied nor
 * concatenated first). Cardrail-Signature keys with the whole secret string, `whsec_` prefix included, and writes hex;
 * Standard Webhooks keys with the secret's decoded bytes and writes base64, as with Web Crypto.
 */
export const nodeCryptoDigest: Digest = (secret, prefix, payload, scheme) =>
  scheme === 'Cardrail-Signature'
    ? createHmac('sha256', secret).update(prefix).update(payload).digest('hex')
    : createHmac('sha256', standardWebhooksKey(secret)).update(prefix).update(payload).digest('base64');

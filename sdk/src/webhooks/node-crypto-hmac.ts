import { createHmac } from 'node:crypto';
import type { HexDigest } from './signature-checks.js';

/**
 * HMAC-SHA256 with node:crypto: synchronous, on the calling thread, so every webhook function of the Node build has
 * a working synchronous form. The body is fed to the HMAC as it is (a Buffer or string is neither copied nor
 * concatenated first); the whole secret string, `whsec_` prefix included, is the key, as with Web Crypto.
 */
export const nodeCryptoHexDigest: HexDigest = (secret, prefix, payload) =>
  createHmac('sha256', secret).update(prefix).update(payload).digest('hex');

// node:crypto's HMAC (the `node` export condition: Node, Bun, Deno): synchronous, fed the body as it is (no copy).
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { BoundedCache } from '../core/bounded-cache.js';
import { standardWebhooksKey } from './schemes.js';
import type { SignedContent } from './signature-checks.js';
import type { HmacProvider } from './webhook-functions.js';

// createHmac keys with a KeyObject as fast as with a string, and about five times slower with bytes (it makes a key
// of them on every call): Standard Webhooks keys (the secret's decoded bytes) are kept as KeyObjects.
const standardKeys = /* @__PURE__ */ new BoundedCache<KeyObject>(16);

function digestsSync({ secrets, prefix, payload, scheme }: SignedContent): string[] {
  const cardrail = scheme === 'Cardrail-Signature';
  return secrets.map((secret) => {
    const key = cardrail ? secret : standardKeys.get(secret, () => createSecretKey(standardWebhooksKey(secret)));
    const hmac = createHmac('sha256', key).update(prefix);
    return hmac.update(payload).digest(cardrail ? 'hex' : 'base64');
  });
}

export const nodeCryptoHmac: HmacProvider = { digestsSync, digests: async (content) => digestsSync(content) };

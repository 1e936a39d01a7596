// `cardrail.webhooks.unwrap(body, headers, secret)`: the standalone `unwrap` made with the HMAC of the client's build,
// from the sources and from dist. The Node root's clients are handed node:crypto (they keep working with Web Crypto
// broken); the Web Crypto root's clients verify on Web Crypto.
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as distRootEsm from '../dist/index.mjs';
import * as distRootNodeEsm from '../dist/index.node.mjs';
import * as sourceRoot from '../src/index.js';
import * as sourceRootNode from '../src/index.node.js';
import { generateWebhookHeadersSync } from '../src/webhooks/index.node.js';

const secret = 'whsec_Q2FyZHJhaWxTaWduaW5nU2VjcmV0MTIz';
const t = 1_795_000_000;
const customerBody = '{"id":"evt_u1","type":"card.frozen","createdAt":"2026-11-21T19:00:00.000Z","data":{"cardId":"card_1"}}';
const options = { apiKey: 'sk_test_clientunwrap', baseUrl: 'http://127.0.0.1:9/v1' };

const require = createRequire(import.meta.url);
const roots = [
  { name: 'source, Node root', root: sourceRootNode, crypto: 'node:crypto' },
  { name: 'source, Web Crypto root', root: sourceRoot, crypto: 'Web Crypto' },
  { name: 'dist ESM, Node root', root: distRootNodeEsm, crypto: 'node:crypto' },
  { name: 'dist ESM, Web Crypto root', root: distRootEsm, crypto: 'Web Crypto' },
  { name: 'dist CJS, Node root', root: require('../dist/index.node.cjs') as typeof sourceRoot, crypto: 'node:crypto' },
  { name: 'dist CJS, Web Crypto root', root: require('../dist/index.cjs') as typeof sourceRoot, crypto: 'Web Crypto' },
] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(roots)('$name', ({ root, crypto: hmac }) => {
  const headers = generateWebhookHeadersSync({ payload: customerBody, secret, timestamp: t, id: 'whd_client1' });

  it('unwraps a delivery of either client from its headers, as the standalone unwrap does', async () => {
    for (const client of [new root.Cardrail(options), new root.CardrailUsers(options)]) {
      await expect(client.webhooks.unwrap(customerBody, headers, secret, { now: t })).resolves.toEqual(JSON.parse(customerBody));
      await expect(client.webhooks.unwrap(customerBody, new Headers(headers), secret, { now: t })).resolves.toMatchObject({
        type: 'card.frozen',
      });
      await expect(
        client.webhooks.unwrap(customerBody.replace('card_1', 'card_2'), headers, secret, { now: t }),
      ).rejects.toBeInstanceOf(root.WebhookVerificationError);
      // A method taken off its client keeps working, like every other method.
      const { unwrap } = client.webhooks;
      await expect(unwrap(customerBody, headers, secret, { now: t })).resolves.toMatchObject({ id: 'evt_u1' });
    }
  });

  it('keeps unwrap through withOptions', async () => {
    const client = new root.Cardrail(options).withOptions({ timeoutMs: 1000 });
    await expect(client.webhooks.unwrap(customerBody, headers, secret, { now: t })).resolves.toMatchObject({ id: 'evt_u1' });
  });

  it(`verifies on ${hmac}, for clients made by withOptions too`, async () => {
    vi.spyOn(crypto.subtle, 'sign').mockRejectedValue(new Error('Web Crypto unavailable'));
    const client = new root.Cardrail(options);
    for (const each of [client, client.withOptions({ timeoutMs: 1000 }), new root.CardrailUsers(options)]) {
      const unwrapped = each.webhooks.unwrap(customerBody, headers, secret, { now: t });
      if (hmac === 'node:crypto') await expect(unwrapped).resolves.toMatchObject({ id: 'evt_u1' });
      else await expect(unwrapped).rejects.toThrow('Web Crypto unavailable');
    }
  });
});

// The Standard Webhooks headers against the reference library, `standardwebhooks` (npm's latest, what svix 2 and
// others delegate to): it verifies what the SDK signs, with the secret as the API issues it, and the SDK verifies what
// it signs. Timestamps are now: the library checks them against the system clock.
import { Webhook, WebhookVerificationError as LibraryError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTATIONS } from './support/webhook-implementations.js';

const body = '{"id":"evt_interop","type":"card.frozen","createdAt":"2026-11-21T19:00:00.000Z","data":{"cardId":"card_1"}}';
/** `whsec_` and 32 alphanumeric characters: a secret as the API issues it. */
const secret = 'whsec_Q2FyZHJhaWxTaWduaW5nU2VjcmV0MTIz';
const rotated = 'whsec_7bT9mQ2xVr4kLp8sYw3nZc6dHf1jGa5e';
/** Issued before the standard alphabet was chosen (URL-safe characters): kept in durable states. */
const legacy = 'whsec_Xk-9fQ2_Vr4kLp8sYw3nZc6dHf1j-a5e';

describe.each(IMPLEMENTATIONS)('$name', ({ module }) => {
  it('signs what the standardwebhooks library verifies, with the secret exactly as issued', async () => {
    const headers = await module.generateWebhookHeaders({ payload: body, secret, id: 'whd_interop1' });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // The library reads Buffers too, as express.raw hands them over.
    expect(new Webhook(secret).verify(Buffer.from(body), headers)).toEqual(JSON.parse(body));
  });

  it('during a rotation, each secret verifies in the library on its own', async () => {
    const headers = await module.generateWebhookHeaders({ payload: body, secret: [rotated, secret], id: 'whd_interop2' });
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const each of [rotated, secret]) expect(new Webhook(each).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook('whsec_b3RoZXJTZWNyZXRPdGhlclNlY3JldDEyMzQ1').verify(body, headers)).toThrow(LibraryError);
  });

  it('the library refuses a tampered body and another message id', async () => {
    const headers = await module.generateWebhookHeaders({ payload: body, secret, id: 'whd_interop3' });
    expect(() => new Webhook(secret).verify(body.replace('card_1', 'card_2'), headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'whd_other' })).toThrow(
      'No matching signature found',
    );
  });

  it('verifies what the library signs, from the headers alone', async () => {
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_fromLibrary',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_fromLibrary', now, body),
    };
    await expect(module.unwrap(body, headers, secret)).resolves.toEqual(JSON.parse(body));
    await expect(module.unwrap(body, new Headers(headers), [rotated, secret])).resolves.toEqual(JSON.parse(body));
    await expect(module.unwrap(body, headers, rotated)).rejects.toMatchObject({ code: 'signature_mismatch' });
  });

  it('a URL-safe secret from before: the library needs it in the standard alphabet, the SDK takes it as it is', async () => {
    const headers = await module.generateWebhookHeaders({ payload: body, secret: legacy, id: 'whd_legacy' });
    expect(() => new Webhook(legacy)).toThrow('incorrect characters');
    const standardAlphabet = `whsec_${legacy.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/')}`;
    expect(new Webhook(standardAlphabet).verify(body, headers)).toEqual(JSON.parse(body));
    await expect(module.unwrap(body, headers, legacy)).resolves.toEqual(JSON.parse(body));
  });
});

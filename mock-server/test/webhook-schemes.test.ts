// The Standard Webhooks headers beside Cardrail-Signature on every delivery, the per-webhook opt-out, and the secrets
// both schemes key with (new ones and those issued before, kept by a state); resending is in webhook-resend.test.ts. Both
// transports: deliveries through MSW in-process and over HTTP from the Node server.
import { unwrap } from '@cardrail/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { FROZEN_MS } from './support/keys.js';
import { webhookScenario } from './support/webhook-scenario.js';

/** A secret as the API issues it now: letters and digits, standard base64 of the Standard Webhooks key. */
const SECRET = /^whsec_[A-Za-z0-9]{32}$/;

describe.each(TRANSPORTS)('Standard Webhooks headers through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { webhookTimeoutMs: 500 });
  });
  afterAll(() => h.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const { subscribe, freezeACard, now, deliveriesOf, last } = webhookScenario(() => h);

  it('signs every delivery in both schemes at one time, webhook-id the delivery id, verified by the SDK from the headers', async () => {
    const { key, receiver, webhook } = await subscribe();
    expect(webhook.secret).toMatch(SECRET);
    expect(webhook.standardWebhooks).toBe(true);
    await freezeACard(key);
    const delivery = last(receiver);
    const [record] = await deliveriesOf(key, webhook.id);
    const t = Math.floor(now(key).getTime() / 1000);
    expect(delivery.headers).toMatchObject({
      'cardrail-signature': expect.stringMatching(new RegExp(`^t=${t},v1=[0-9a-f]{64}$`)),
      'webhook-id': record.id,
      'webhook-timestamp': String(t),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(record.id).toMatch(/^whd_/);
    expect(record.messageId).toBe(record.id);
    const event = await unwrap(delivery.body, delivery.headers, webhook.secret, { now: now(key) });
    expect(event).toMatchObject({ type: 'card.frozen', id: record.eventId });
    // Each scheme alone verifies too.
    await expect(
      unwrap(delivery.body, { 'cardrail-signature': delivery.headers['cardrail-signature'] }, webhook.secret, { now: now(key) }),
    ).resolves.toBeDefined();
    const { 'cardrail-signature': _, ...standard } = delivery.headers;
    await expect(unwrap(delivery.body, standard, webhook.secret, { now: now(key) })).resolves.toBeDefined();
  });

  it('is verified by the standardwebhooks library with the secret exactly as the API returned it, in both variants', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const variant of ['customer', 'user'] as const) {
      const { key, receiver, webhook } = await subscribe({ variant });
      await freezeACard(key, variant);
      // The library checks the time against the system clock: set to the organization's test clock.
      vi.setSystemTime(now(key));
      const delivery = last(receiver);
      expect(new Webhook(webhook.secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: 'card.frozen' });
      expect(() => new Webhook(webhook.secret).verify(`${delivery.body} `, delivery.headers)).toThrow('No matching signature');
    }
  });

  it('keeps webhook-id across every attempt of a delivery, automatic and manual, each signed afresh', async () => {
    const { key, receiver, webhook } = await subscribe();
    receiver.answer({ status: 503 });
    await freezeACard(key);
    await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 5 * 60 } });
    await h.mock.idle();
    receiver.answer({ status: 200 });
    const [record] = await deliveriesOf(key, webhook.id);
    await h.call('POST', `/webhooks/${webhook.id}/deliveries/${record.id}/retry`, { key });
    const attempts = receiver.received;
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id']))).toEqual(new Set([record.id]));
    const times = attempts.map((attempt) => Number(attempt.headers['webhook-timestamp']));
    expect(times[1]).toBe((times[0] as number) + 300);
    for (const attempt of attempts) {
      expect(attempt.headers['cardrail-signature']).toContain(`t=${attempt.headers['webhook-timestamp']},`);
      await unwrap(attempt.body, attempt.headers, webhook.secret, { now: Number(attempt.headers['webhook-timestamp']) });
    }
  });

  it('signs with one entry per active secret in each scheme during a rotation; each secret verifies alone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { key, receiver, webhook } = await subscribe();
    const rotated = (await h.call('POST', `/webhooks/${webhook.id}/rotate-secret`, { key })).body;
    expect(rotated.secret).toMatch(SECRET);
    expect(rotated.standardWebhooks).toBe(true);
    await freezeACard(key);
    vi.setSystemTime(now(key));
    const delivery = last(receiver);
    expect(delivery.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(delivery.headers['cardrail-signature']?.match(/v1=/g)).toHaveLength(2);
    for (const secret of [rotated.secret, webhook.secret]) {
      expect(new Webhook(secret).verify(delivery.body, delivery.headers)).toMatchObject({ type: 'card.frozen' });
      await unwrap(delivery.body, delivery.headers, secret, { now: now(key) });
    }
  });

  it('sends Cardrail-Signature alone to a webhook with standardWebhooks: false, and both again once it is turned back on', async () => {
    const { key, receiver, webhook } = await subscribe({ standardWebhooks: false });
    expect(webhook.standardWebhooks).toBe(false);
    expect((await h.call('GET', `/webhooks/${webhook.id}`, { key })).body.standardWebhooks).toBe(false);
    expect((await h.call('GET', '/webhooks', { key })).body.data[0].standardWebhooks).toBe(false);
    await freezeACard(key);
    const plain = last(receiver);
    expect(Object.keys(plain.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    await unwrap(plain.body, plain.headers, webhook.secret, { now: now(key) });

    const updated = await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { standardWebhooks: true } });
    expect(updated.body.standardWebhooks).toBe(true);
    await freezeACard(key);
    expect(last(receiver).headers['webhook-signature']).toMatch(/^v1,/);
    const refused = await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { standardWebhooks: 'no' } });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', details: { field: '/body/standardWebhooks' } } },
    });
  });

  it('keeps signing both schemes with a secret issued before, in the URL-safe alphabet, as a state restores it', async () => {
    const { key, receiver, webhook } = await subscribe();
    const legacy = 'whsec_Xk-9fQ2_Vr4kLp8sYw3nZc6dHf1j-a5e';
    // A snapshot holds the secret as the state stored it: put an old-style one in its place.
    const snapshot = JSON.parse(JSON.stringify(h.mock.snapshot()).replaceAll(webhook.secret, legacy));
    h.mock.restore(snapshot);
    await freezeACard(key);
    const delivery = last(receiver);
    await expect(unwrap(delivery.body, delivery.headers, legacy, { now: now(key) })).resolves.toMatchObject({
      type: 'card.frozen',
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now(key));
    // A Standard Webhooks library reads standard base64 only: the same secret with + and / verifies.
    const standardAlphabet = `whsec_${legacy.slice(6).replaceAll('-', '+').replaceAll('_', '/')}`;
    expect(new Webhook(standardAlphabet).verify(delivery.body, delivery.headers)).toMatchObject({ type: 'card.frozen' });
    expect(webhook.secret).not.toBe(legacy);
  });

  it('signs deliveries with the test clock the organization reads', async () => {
    const { key, receiver } = await subscribe();
    await freezeACard(key);
    expect(Number(last(receiver).headers['webhook-timestamp']) * 1000).toBe(Math.floor(FROZEN_MS / 1000) * 1000);
  });
});

// Resending a stored event (docs/webhooks.md#resending-an-event): a new delivery record that keeps the Standard
// Webhooks message id (`webhook-id`) of the event's first delivery to the webhook, so that a receiver deduplicating on
// it, with the `standardwebhooks` or `svix` library, sees the same message; and the bound on resends (10 of one event
// to one webhook, 100 to one webhook, per minute of the test clock), answered 429 with Retry-After. Both transports.
import { unwrap } from '@cardrail/sdk/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { newKey } from './support/keys.js';
import type { ReceivedDelivery } from './support/receiver.js';
import { webhookScenario } from './support/webhook-scenario.js';

describe.each(TRANSPORTS)('resending an event through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { webhookTimeoutMs: 500 });
  });
  afterAll(() => h.close());
  afterEach(() => {
    vi.useRealTimers();
  });
  const { subscribe, freezeACard, now, deliveriesOf, last } = webhookScenario(() => h);
  const resend = (key: string, webhookId: string, eventId: string, variant?: 'customer' | 'user') =>
    h.call('POST', `/webhooks/${webhookId}/events/${eventId}/resend`, { key, variant });

  it("delivers a stored event again as a new delivery record with the first delivery's webhook-id, signed afresh", async () => {
    const { key, receiver, webhook } = await subscribe();
    await freezeACard(key);
    const [first] = await deliveriesOf(key, webhook.id);
    expect(first.messageId).toBe(first.id);
    await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 60 } });
    const resent = await resend(key, webhook.id, first.eventId);
    expect(resent.status).toBe(201);
    expect(resent.body).toMatchObject({
      messageId: first.id,
      webhookId: webhook.id,
      eventId: first.eventId,
      eventType: 'card.frozen',
      status: 'succeeded',
      attempts: [expect.objectContaining({ attempt: 1, outcome: 'succeeded', responseStatus: 200 })],
      nextAttemptAt: null,
    });
    // A record of its own, the message of the first.
    expect(resent.body.id).not.toBe(first.id);
    const delivery = last(receiver);
    expect(delivery.headers['webhook-id']).toBe(first.id);
    expect(Number(delivery.headers['webhook-timestamp'])).toBe(Math.floor(now(key).getTime() / 1000));
    expect(JSON.parse(delivery.body).id).toBe(first.eventId);
    await unwrap(delivery.body, delivery.headers, webhook.secret, { now: now(key) });
    expect((await deliveriesOf(key, webhook.id)).map((record: { id: string }) => record.id)).toEqual([resent.body.id, first.id]);
  });

  it('is the same message to a receiver that deduplicates on webhook-id, verified by standardwebhooks and svix', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { key, receiver, webhook } = await subscribe();
    await freezeACard(key);
    const [first] = await deliveriesOf(key, webhook.id);
    // The receiver failed the first delivery after recording it; the resend is retried until it succeeds.
    receiver.answer({ status: 503 });
    const resent = await resend(key, webhook.id, first.eventId);
    expect(resent.body.status).toBe('pending');
    receiver.answer({ status: 200 });
    await h.call('POST', `/webhooks/${webhook.id}/deliveries/${resent.body.id}/retry`, { key });
    await resend(key, webhook.id, first.eventId);
    expect(receiver.received).toHaveLength(4);

    // A receiver as the libraries' users write one: verify with the library, then process each message id once.
    vi.setSystemTime(now(key));
    const processed: ReceivedDelivery[] = [];
    const seen = new Set<string>();
    for (const delivery of receiver.received) {
      new StandardWebhook(webhook.secret).verify(delivery.body, delivery.headers);
      new SvixWebhook(webhook.secret).verify(delivery.body, delivery.headers);
      const messageId = delivery.headers['webhook-id'] as string;
      if (seen.has(messageId)) continue;
      seen.add(messageId);
      processed.push(delivery);
    }
    expect(processed.map((delivery) => delivery.headers['webhook-id'])).toEqual([first.id]);
    expect(new Set(receiver.received.map((delivery) => JSON.parse(delivery.body).id))).toEqual(new Set([first.eventId]));
  });

  it('gives an event never delivered to the webhook a new message id on its first resend, which later resends keep', async () => {
    const key = newKey();
    await freezeACard(key);
    // Subscribed after the event: the event was never delivered to this webhook.
    const receiver = await h.receiver();
    const webhook = (await h.call('POST', '/webhooks', { key, body: { url: receiver.url, events: ['card.frozen'] } })).body;
    const event = (await h.call('GET', '/events?type=card.frozen&limit=1', { key })).body.data[0];
    const firstResend = await resend(key, webhook.id, event.id);
    expect(firstResend.body.messageId).toBe(firstResend.body.id);
    const secondResend = await resend(key, webhook.id, event.id);
    expect(secondResend.body).toMatchObject({ messageId: firstResend.body.id, status: 'succeeded' });
    expect(receiver.received.map((delivery) => delivery.headers['webhook-id'])).toEqual([
      firstResend.body.id,
      firstResend.body.id,
    ]);
  });

  it('keeps the message id from the stored records after a restore', async () => {
    const { key, receiver, webhook } = await subscribe();
    await freezeACard(key);
    const [first] = await deliveriesOf(key, webhook.id);
    h.mock.restore(h.mock.snapshot());
    const resent = await resend(key, webhook.id, first.eventId);
    expect(resent.body.messageId).toBe(first.id);
    expect(last(receiver).headers['webhook-id']).toBe(first.id);
  });

  it('retries a resend that fails on the usual schedule', async () => {
    const { key, receiver, webhook } = await subscribe();
    await freezeACard(key);
    const [first] = await deliveriesOf(key, webhook.id);
    receiver.answer({ status: 500 });
    const resent = await resend(key, webhook.id, first.eventId);
    expect(resent.body).toMatchObject({
      status: 'pending',
      attempts: [expect.objectContaining({ outcome: 'failed', responseStatus: 500 })],
      nextAttemptAt: new Date(now(key).getTime() + 5 * 60_000).toISOString(),
    });
  });

  it('resends any event of the organization the webhook variant has, subscribed or not, in its envelope', async () => {
    const { key, receiver, webhook } = await subscribe({ variant: 'user', events: ['card.frozen'] });
    await freezeACard(key);
    const created = (await h.call('GET', '/events?type=card.created&limit=1', { key, variant: 'user' })).body.data[0];
    const resent = await resend(key, webhook.id, created.id, 'user');
    expect(resent.body).toMatchObject({ status: 'succeeded', eventType: 'card.created' });
    expect(JSON.parse(last(receiver).body)).toMatchObject({
      id: created.id,
      type: 'card.created',
      createdAt: expect.any(Number),
    });
  });

  it('refuses an event type the webhook variant lacks, and answers 404 for what is not the organization own', async () => {
    const { key, webhook } = await subscribe({ variant: 'user' });
    const owner = (await h.call('POST', '/customers', { key, body: { email: 'ada@example.com' } })).body;
    const agent = (await h.call('POST', '/agents', { key, body: { customerId: owner.id, name: 'Buyer' } })).body;
    const card = (await h.call('POST', '/cards', { key, body: { customerId: owner.id, agentId: agent.id } })).body;
    await h.call('POST', '/intents', { key, body: { cardId: card.id, summary: 'Books', expectedAmount: 1000 } });
    const intentCreated = (await h.call('GET', '/events?type=intent.created&limit=1', { key })).body.data[0];
    const refused = await resend(key, webhook.id, intentCreated.id, 'user');
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', details: { field: '/path/eventId' } } },
    });

    const other = newKey();
    await freezeACard(other);
    const foreign = (await h.call('GET', '/events?limit=1', { key: other })).body.data[0];
    const live = `sk_live_${key.slice('sk_test_'.length)}`;
    for (const [path, caller] of [
      [`/webhooks/${webhook.id}/events/${foreign.id}/resend`, key],
      [`/webhooks/${webhook.id}/events/evt_doesNotExist00/resend`, key],
      [`/webhooks/wh_doesNotExist00/events/${intentCreated.id}/resend`, key],
      [`/webhooks/${webhook.id}/events/${intentCreated.id}/resend`, other],
      [`/webhooks/${webhook.id}/events/${intentCreated.id}/resend`, live],
    ] as const) {
      expect(await h.call('POST', path, { key: caller }), path).toMatchObject({ status: 404, body: { error: 'not_found' } });
    }
  });

  it('records a resend to a disabled webhook as failed, sending nothing', async () => {
    const { key, receiver, webhook } = await subscribe();
    await freezeACard(key);
    const [first] = await deliveriesOf(key, webhook.id);
    await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { status: 'disabled' } });
    const sent = receiver.received.length;
    const resent = await resend(key, webhook.id, first.eventId);
    expect(resent.body).toMatchObject({
      status: 'failed',
      attempts: [expect.objectContaining({ error: 'webhook is disabled' })],
    });
    expect(receiver.received).toHaveLength(sent);
  });

  describe('the bound', () => {
    it('answers the 11th resend of one event to one webhook within a minute 429 with Retry-After, sending nothing', async () => {
      const { key, receiver, webhook } = await subscribe();
      await freezeACard(key);
      const [first] = await deliveriesOf(key, webhook.id);
      for (let i = 0; i < 10; i++) expect((await resend(key, webhook.id, first.eventId)).status).toBe(201);
      const sent = receiver.received.length;
      const records = (await deliveriesOf(key, webhook.id)).length;

      const refused = await resend(key, webhook.id, first.eventId);
      expect({ status: refused.status, body: refused.body, retryAfter: refused.headers.get('Retry-After') }).toEqual({
        status: 429,
        body: {
          error: {
            code: 'rate_limited',
            message: `Resend limit of 10 per minute for event ${first.eventId} to webhook ${webhook.id} exceeded.`,
            details: { limit: 10, webhookId: webhook.id, eventId: first.eventId },
          },
        },
        // The test clock stands still: the whole minute is left.
        retryAfter: '60',
      });
      // Refused: nothing sent, nothing recorded, and the key's own limit (off here) is not pretended.
      expect(refused.headers.get('RateLimit-Limit')).toBeNull();
      expect(receiver.received).toHaveLength(sent);
      expect(await deliveriesOf(key, webhook.id)).toHaveLength(records);

      // Another event of the same webhook has its own count.
      const other = (await h.call('GET', '/events?type=card.created&limit=1', { key })).body.data[0];
      expect((await resend(key, webhook.id, other.id)).status).toBe(201);
      // The window is a minute of the organization's test clock: advancing it opens the next one.
      await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 59 } });
      expect((await resend(key, webhook.id, first.eventId)).headers.get('Retry-After')).toBe('1');
      await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 1 } });
      expect((await resend(key, webhook.id, first.eventId)).body).toMatchObject({ messageId: first.id, status: 'succeeded' });
    });

    it('accepts 100 resends to one webhook a minute, whatever the events', async () => {
      const { key, webhook } = await subscribe({ events: ['*'] });
      for (let i = 0; i < 6; i++) await h.call('POST', '/customers', { key, body: { email: `c${i}@example.com` } });
      await h.mock.idle();
      const events = (await h.call('GET', '/events?limit=11', { key })).body.data as { id: string }[];
      expect(events).toHaveLength(11);
      for (const event of events.slice(0, 10)) {
        for (let i = 0; i < 10; i++) expect((await resend(key, webhook.id, event.id)).status).toBe(201);
      }
      const refused = await resend(key, webhook.id, (events[10] as { id: string }).id);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'rate_limited', details: { limit: 100, webhookId: webhook.id } });
      // Per webhook: another webhook of the organization resends the same event.
      const receiver = await h.receiver();
      const second = (await h.call('POST', '/webhooks', { key, body: { url: receiver.url, events: ['*'] } })).body;
      expect((await resend(key, second.id, (events[10] as { id: string }).id)).status).toBe(201);
    });
  });
});

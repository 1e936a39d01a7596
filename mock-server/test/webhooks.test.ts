import { verifySignature } from '@cardrail/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { FROZEN_MS, newKey } from './support/keys.js';
import type { Receiver } from './support/receiver.js';

const MINUTE = 60_000;

describe.each(TRANSPORTS)('webhooks through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { webhookTimeoutMs: 500 });
  });
  afterAll(() => h.close());

  async function setup(variant: 'customer' | 'user' = 'customer', events: string[] = ['*']) {
    const key = newKey();
    const receiver = await h.receiver();
    const webhook = (await h.call('POST', '/webhooks', { key, variant, body: { url: receiver.url, events } })).body;
    const customer = (
      await h.call('POST', variant === 'customer' ? '/customers' : '/users', { key, variant, body: { email: 'ada@example.com' } })
    ).body;
    const agent = (await h.call('POST', '/agents', { key, body: { customerId: customer.id, name: 'Buyer' } })).body;
    const card = (await h.call('POST', '/cards', { key, body: { customerId: customer.id, agentId: agent.id } })).body;
    await h.mock.idle();
    return { key, receiver, webhook, customer, agent, card };
  }

  const clockOf = (key: string) => h.mock.clock.now(key).getTime();
  const deliveriesOf = async (key: string, webhookId: string) =>
    (await h.call('GET', `/webhooks/${webhookId}/deliveries?limit=100`, { key })).body.data;
  const bodies = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.body));
  const advance = (key: string, seconds: number) => h.call('POST', '/simulate/clock/advance', { key, body: { seconds } });

  describe('subscriptions', () => {
    it('shows the secret once, and supports get, list, update and delete', async () => {
      const key = newKey();
      const created = await h.call('POST', '/webhooks', {
        key,
        body: { url: 'https://example.com/hook', events: ['card.frozen'], description: 'Ops' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        url: 'https://example.com/hook',
        events: ['card.frozen'],
        description: 'Ops',
        status: 'active',
      });
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      const got = await h.call('GET', `/webhooks/${created.body.id}`, { key });
      expect(got.body).not.toHaveProperty('secret');
      expect((await h.call('GET', '/webhooks', { key })).body.data).toEqual([got.body]);
      const updated = await h.call('PATCH', `/webhooks/${created.body.id}`, {
        key,
        body: { status: 'disabled', events: ['card.closed'] },
      });
      expect(updated.body).toMatchObject({ status: 'disabled', events: ['card.closed'] });
      expect((await h.call('DELETE', `/webhooks/${created.body.id}`, { key })).body).toEqual({
        id: created.body.id,
        deleted: true,
      });
      expect((await h.call('GET', `/webhooks/${created.body.id}`, { key })).status).toBe(404);
    });

    it('signs with a secret of the caller (an extension): whsec_ and the base64 of 24 to 64 bytes, else 400', async () => {
      const key = newKey();
      const base64 = (bytes: number) =>
        btoa(String.fromCharCode(...Array.from({ length: bytes }, (_, i) => (i * 37 + 11) % 256)));
      const own = `whsec_${base64(32)}`;
      const receiver = await h.receiver();
      const created = await h.call('POST', '/webhooks', {
        key,
        body: { url: receiver.url, events: ['*'], secret: own },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.secret).toBe(own);
      await h.call('POST', '/customers', { key, body: { email: 'ada@example.com' } });
      await h.mock.idle();
      const [delivery] = receiver.received;
      const header = delivery?.headers['cardrail-signature'];
      await verifySignature({ payload: delivery?.body ?? '', header, secret: own, now: new Date(clockOf(key)) });

      for (const [secret, why] of [
        [`whsec_${base64(23)}`, /encodes 23 bytes/],
        [`whsec_${base64(65)}`, /encodes 65 bytes/],
        [`whsec_${base64(64)}`, null],
        [`whsec_${base64(24)}`, null],
        [`whsec_${base64(32).replace(/[+/]/g, '-')}-`, /must match pattern|pattern/],
        [base64(32), /pattern/],
        ['whsec_short', /fewer than|pattern|minLength|must NOT have fewer/],
      ] as const) {
        const answer = await h.call('POST', '/webhooks', {
          key,
          body: { url: 'https://example.com/hook', events: ['*'], secret },
        });
        if (why === null) {
          expect(answer.status, secret).toBe(201);
          continue;
        }
        expect(answer.status, secret).toBe(400);
        expect(answer.body.error.code).toBe('invalid_request');
        expect(answer.body.error.message).toMatch(why);
      }
      // Only the two accepted ones were created, beside the first.
      expect((await h.call('GET', '/webhooks', { key })).body.data).toHaveLength(3);
    });

    it("accepts only event types of the caller's variant, as named there", async () => {
      const key = newKey();
      const general = await h.call('POST', '/webhooks', {
        key,
        body: { url: 'https://e.com/h', events: ['card.frozen', 'transaction.authorized'] },
      });
      expect(general.status).toBe(400);
      expect(general.body.error.details.field).toBe('/body/events/1');
      expect(
        (await h.call('POST', '/webhooks', { key, body: { url: 'https://e.com/h', events: ['transaction.created'] } })).status,
      ).toBe(201);
      expect(
        (
          await h.call('POST', '/webhooks', {
            key,
            variant: 'user',
            body: { url: 'https://e.com/h', events: ['transaction.created'] },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await h.call('POST', '/webhooks', {
            key,
            variant: 'user',
            body: { url: 'https://e.com/h', events: ['transaction.authorized'] },
          })
        ).status,
      ).toBe(201);
    });
  });

  describe('delivery', () => {
    it('POSTs each event signed with Cardrail-Signature, verified by the SDK, in the general envelope', async () => {
      const { key, receiver, webhook, card } = await setup('customer');
      const delivered = bodies(receiver);
      // Deliveries are concurrent POSTs: they may arrive in any order (receivers order by the event, not by arrival).
      expect(delivered.map((e) => e.type).sort()).toEqual([
        'agent.created',
        'card.created',
        'user.created',
        'verification.initiated',
      ]);
      const last = receiver.received.find((request) => request.body.includes('"card.created"'));
      expect(last?.headers['content-type']).toBe('application/json');
      await verifySignature({
        payload: last?.body ?? '',
        header: last?.headers['cardrail-signature'],
        secret: webhook.secret,
        now: new Date(clockOf(key)),
      });
      await expect(
        verifySignature({
          payload: `${last?.body} `,
          header: last?.headers['cardrail-signature'],
          secret: webhook.secret,
          now: new Date(clockOf(key)),
        }),
      ).rejects.toThrow();
      const event = delivered.find((e) => e.type === 'card.created');
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'card.created',
        createdAt: new Date(FROZEN_MS).toISOString(),
        data: expect.objectContaining({ cardId: card.id }),
      });
      expect((await h.call('GET', `/events/${event.id}`, { key })).body).toEqual(event);
      const deliveries = await deliveriesOf(key, webhook.id);
      expect(deliveries).toHaveLength(4);
      expect(deliveries[0]).toMatchObject({
        eventId: event.id,
        eventType: 'card.created',
        status: 'succeeded',
        nextAttemptAt: null,
      });
      expect(deliveries[0].attempts).toEqual([
        {
          attempt: 1,
          attemptedAt: new Date(FROZEN_MS).toISOString(),
          outcome: 'succeeded',
          responseStatus: 200,
          error: null,
          durationMs: expect.any(Number),
        },
      ]);
    });

    it('sends the event-catalog envelope to a webhook created through the user variant', async () => {
      const { key, receiver } = await setup('user', ['card.created']);
      const [event] = bodies(receiver);
      expect(event).toMatchObject({
        type: 'card.created',
        organizationId: h.mock.tenantOf(key)?.organizationId,
        createdAt: FROZEN_MS,
      });
    });

    it('delivers only subscribed types, and nothing to a disabled webhook', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.closed']);
      expect(receiver.received).toHaveLength(0);
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.call('POST', `/cards/${card.id}/close`, { key });
      await h.mock.idle();
      expect(bodies(receiver).map((e) => e.type)).toEqual(['card.closed']);
      await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { status: 'disabled', events: ['*'] } });
      await h.call('POST', '/customers', { key, body: { email: 'x@example.com' } });
      await h.mock.idle();
      expect(receiver.received).toHaveLength(1);
    });

    it('delivers an event once to a webhook that names its type and `*`, and follows event changes by PATCH', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen', '*']);
      const before = receiver.received.length;
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      expect(
        bodies(receiver)
          .slice(before)
          .map((e) => e.type),
      ).toEqual(['card.frozen']);
      await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { events: ['card.closed'] } });
      await h.call('POST', '/customers', { key, body: { email: 'y@example.com' } });
      await h.call('POST', `/cards/${card.id}/close`, { key });
      await h.mock.idle();
      expect(
        bodies(receiver)
          .slice(before)
          .map((e) => e.type),
      ).toEqual(['card.frozen', 'card.closed']);
    });

    it('delivers to each mode of one organization only its own events', async () => {
      // The test mode's organization with a '*' webhook (user variant: the envelope names the organization).
      const { key: test, receiver: testReceiver, webhook } = await setup('user');
      const live = (await h.call('POST', '/api-keys', { key: test, body: { mode: 'live' } })).body.key as string;
      const liveReceiver = await h.receiver();
      await h.call('POST', '/webhooks', { key: live, variant: 'user', body: { url: liveReceiver.url, events: ['*'] } });
      expect((await h.call('GET', `/webhooks/${webhook.id}`, { key: live })).status).toBe(404);
      expect((await h.call('GET', '/webhooks', { key: live })).body.data.map((w: { url: string }) => w.url)).toEqual([
        liveReceiver.url,
      ]);

      const liveUser = (await h.call('POST', '/users', { key: live, variant: 'user', body: { email: 'live@example.com' } })).body;
      await h.call('POST', '/users', { key: test, variant: 'user', body: { email: 'test@example.com' } });
      await h.mock.idle();

      const eventIds = async (key: string) =>
        (await h.call('GET', '/events?limit=100', { key, variant: 'user' })).body.data.map((e: { id: string }) => e.id).sort();
      const liveDelivered = bodies(liveReceiver);
      expect(liveDelivered.map((e) => e.id).sort()).toEqual(await eventIds(live));
      expect(liveDelivered.find((e) => e.type === 'user.created')?.data).toMatchObject({ userId: liveUser.id });
      const testDelivered = bodies(testReceiver);
      expect(testDelivered.map((e) => e.id).sort()).toEqual(await eventIds(test));
      // One organization: both receivers saw its id, and no event reached both.
      const organizations = new Set([...liveDelivered, ...testDelivered].map((e) => e.organizationId));
      expect(organizations).toEqual(new Set([h.mock.tenantOf(test)?.organizationId]));
      const testIds = new Set(testDelivered.map((e) => e.id));
      expect(liveDelivered.filter((e) => testIds.has(e.id))).toEqual([]);
    });

    it('stops delivering to a deleted webhook, pending retries included', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen']);
      receiver.answer({ status: 503 });
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      expect(receiver.received).toHaveLength(1);
      await h.call('DELETE', `/webhooks/${webhook.id}`, { key });
      await h.call('POST', `/cards/${card.id}/close`, { key });
      await advance(key, 2 * 24 * 3600);
      expect(receiver.received).toHaveLength(1);
      expect((await h.call('GET', `/webhooks/${webhook.id}/deliveries`, { key })).status).toBe(404);
    });

    it('records a delivery waiting for a retry as failed when its webhook is disabled meanwhile', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen']);
      receiver.answer({ status: 503 });
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { status: 'disabled' } });
      await advance(key, 5 * 60);
      const [delivery] = await deliveriesOf(key, webhook.id);
      expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(delivery.attempts.map((a: { error: string | null }) => a.error)).toEqual([null, 'webhook is disabled']);
      expect(receiver.received).toHaveLength(1);
    });

    it('never makes the causing request wait for the receiver', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen']);
      receiver.answer('hang');
      const frozen = await h.call('POST', `/cards/${card.id}/freeze`, { key });
      expect(frozen.body.status).toBe('frozen');
      // The answer came back while the receiver still holds the delivery.
      const [pending] = await deliveriesOf(key, webhook.id);
      expect(pending).toMatchObject({ status: 'pending', attempts: [] });
      receiver.answer({ status: 200 });
      receiver.release();
      await h.mock.idle();
      const [done] = await deliveriesOf(key, webhook.id);
      expect(done.status).toBe('succeeded');
    });

    it('counts a redirect and a receiver that does not answer in time as failures', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen', 'card.closed']);
      receiver.answer({ status: 302, headers: { Location: 'https://elsewhere.example.com/' } });
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      const [redirected] = await deliveriesOf(key, webhook.id);
      expect(redirected.attempts[0]).toMatchObject({
        outcome: 'failed',
        responseStatus: 302,
        error: expect.stringContaining('redirect'),
      });
      expect(redirected.status).toBe('pending');

      receiver.answer('hang');
      await h.call('POST', `/cards/${card.id}/close`, { key });
      await h.mock.idle();
      const [slow] = await deliveriesOf(key, webhook.id);
      expect(slow.attempts[0]).toMatchObject({
        outcome: 'failed',
        responseStatus: null,
        error: expect.stringContaining('no response within'),
      });
      receiver.release();
    });
  });

  describe('retries on the test clock', () => {
    it('retries at 0, 5 min, 30 min, 2 h and 24 h (each from the previous attempt), then marks the delivery failed', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen']);
      receiver.answer({ status: 503 });
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      const expected = [0, 5, 35, 155, 1595].map((minutes) => FROZEN_MS + minutes * MINUTE);
      const attemptTimes = async () =>
        (await deliveriesOf(key, webhook.id))[0].attempts.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt));
      expect(await attemptTimes()).toEqual(expected.slice(0, 1));

      // One second short of each retry nothing happens; at the instant it does.
      const steps = [5, 30, 120, 1440];
      for (const [index, minutes] of steps.entries()) {
        await advance(key, minutes * 60 - 1);
        expect(await attemptTimes()).toHaveLength(index + 1);
        await advance(key, 1);
        expect(await attemptTimes()).toEqual(expected.slice(0, index + 2));
      }
      const [failed] = await deliveriesOf(key, webhook.id);
      expect(failed).toMatchObject({ status: 'failed', nextAttemptAt: null });
      expect(
        failed.attempts.every(
          (a: { outcome: string; responseStatus: number }) => a.outcome === 'failed' && a.responseStatus === 503,
        ),
      ).toBe(true);
      await advance(key, 7 * 24 * 3600);
      expect(await attemptTimes()).toHaveLength(5);

      // Every attempt carried the same event id and its own signature time.
      const received = receiver.received.map((r) => ({
        id: JSON.parse(r.body).id,
        t: Number(/t=(\d+)/.exec(r.headers['cardrail-signature'] ?? '')?.[1]),
      }));
      expect(new Set(received.map((r) => r.id)).size).toBe(1);
      expect(received.map((r) => r.t * 1000)).toEqual(expected);

      // A manual retry makes a sixth attempt at once.
      receiver.answer({ status: 204 });
      const retried = await h.call('POST', `/webhooks/${webhook.id}/deliveries/${failed.id}/retry`, { key });
      expect(retried.body).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
      expect(retried.body.attempts).toHaveLength(6);
      expect((await h.call('POST', `/webhooks/${webhook.id}/deliveries/whd_missing/retry`, { key })).status).toBe(404);
    });

    it('does all due attempts in one long advance, in time order', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen']);
      receiver.answer({ status: 500 });
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await advance(key, 2 * 24 * 3600);
      const [delivery] = await deliveriesOf(key, webhook.id);
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts.map((a: { attemptedAt: string }) => (Date.parse(a.attemptedAt) - FROZEN_MS) / MINUTE)).toEqual([
        0, 5, 35, 155, 1595,
      ]);
    });

    it('loses no event while the receiver is down: each is delivered once it is back, or recorded as failed', async () => {
      const { key, receiver, webhook, customer } = await setup('customer', ['user.updated']);
      receiver.answer({ status: 503 });
      for (const phone of ['1', '2', '3']) await h.call('PATCH', `/customers/${customer.id}`, { key, body: { phone } });
      await h.mock.idle();
      receiver.answer({ status: 200 });
      await advance(key, 5 * 60);
      const deliveries = await deliveriesOf(key, webhook.id);
      expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      const delivered = receiver.received.filter((_, i) => i >= 3).map((r) => JSON.parse(r.body).id);
      expect(new Set(delivered)).toEqual(new Set(deliveries.map((d: { eventId: string }) => d.eventId)));

      // A receiver that refuses connections for good: every event ends up recorded as failed.
      await h.call('PATCH', `/webhooks/${webhook.id}`, { key, body: { url: 'http://127.0.0.1:9/closed' } });
      for (const phone of ['4', '5']) await h.call('PATCH', `/customers/${customer.id}`, { key, body: { phone } });
      await advance(key, 2 * 24 * 3600);
      const after = await deliveriesOf(key, webhook.id);
      expect(after.slice(0, 2).map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length])).toEqual([
        ['failed', 5],
        ['failed', 5],
      ]);
    });
  });

  describe('secret rotation', () => {
    it('signs with the new and the old secret for 24 hours, then with the new one only', async () => {
      const { key, receiver, webhook, card } = await setup('customer', ['card.frozen', 'card.closed']);
      const rotated = await h.call('POST', `/webhooks/${webhook.id}/rotate-secret`, { key });
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(webhook.secret);
      await h.call('POST', `/cards/${card.id}/freeze`, { key });
      await h.mock.idle();
      const during = receiver.received.at(-1);
      expect(during?.headers['cardrail-signature']?.match(/v1=/g)).toHaveLength(2);
      for (const secret of [webhook.secret, rotated.body.secret]) {
        await verifySignature({
          payload: during?.body ?? '',
          header: during?.headers['cardrail-signature'],
          secret,
          now: new Date(clockOf(key)),
        });
      }
      await advance(key, 24 * 3600);
      await h.call('POST', `/cards/${card.id}/close`, { key });
      await h.mock.idle();
      const after = receiver.received.at(-1);
      expect(after?.headers['cardrail-signature']?.match(/v1=/g)).toHaveLength(1);
      const now = new Date(clockOf(key));
      await verifySignature({
        payload: after?.body ?? '',
        header: after?.headers['cardrail-signature'],
        secret: rotated.body.secret,
        now,
      });
      await expect(
        verifySignature({
          payload: after?.body ?? '',
          header: after?.headers['cardrail-signature'],
          secret: webhook.secret,
          now,
        }),
      ).rejects.toThrow();
    });
  });
});

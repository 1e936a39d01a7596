// The parts behind the webhook rules: the Node delivery fetch resolves names itself and does not connect to a
// refused address, and the attempt limiter caps attempts per origin and overall.
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createWebhookFetch } from '../src/adapters/webhook-fetch.js';
import { createMockServer } from '../src/index.js';
import { AttemptLimiter, LimiterClosedError } from '../src/webhooks/attempt-limiter.js';
import { WebhookUrlPolicy } from '../src/webhooks/url-policy.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { call } from './support/state-tour.js';

describe('the Node delivery fetch', () => {
  const key = newKey();

  it('does not connect to a name that resolves to a refused address: the attempt fails naming it', async () => {
    const resolve = ((hostname: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, [{ address: hostname === 'metadata.test' ? '169.254.169.254' : '127.0.0.1', family: 4 }])) as never;
    const pool = createWebhookFetch({ policy: new WebhookUrlPolicy(), resolve });
    const refusing = createMockServer({ frozenClock: FROZEN_AT, fetch: pool.fetch });
    const webhook = await call(refusing, {
      method: 'POST',
      path: '/webhooks',
      body: { url: 'http://metadata.test/x', events: ['*'] },
      key,
    });
    expect(webhook.status).toBe(201);
    await call(refusing, { method: 'POST', path: '/customers', body: { email: 'ada@example.com' }, key });
    await refusing.idle();
    const { id } = JSON.parse(webhook.body) as { id: string };
    const records = JSON.parse((await call(refusing, { method: 'GET', path: `/webhooks/${id}/deliveries`, key })).body) as {
      data: { attempts: { error: string | null; responseStatus: number | null }[] }[];
    };
    expect(records.data[0]?.attempts[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringContaining('metadata.test resolves to 169.254.169.254, which is a cloud metadata address'),
    });
    pool.close();
  });

  it('refuses a metadata address a host opened with allowWebhookHosts resolves to, unless that address is named', async () => {
    // Answered on a later turn, as dns.lookup does.
    const resolve = ((_hostname: string, _options: unknown, callback: (error: null, addresses: LookupAddress[]) => void) =>
      setImmediate(() => callback(null, [{ address: 'fd00:ec2::254', family: 6 }]))) as never;
    const pool = createWebhookFetch({ policy: new WebhookUrlPolicy(['opened.test']), resolve });
    const refused = await pool
      .fetch('http://opened.test:9/x', { method: 'POST', body: '{}', signal: AbortSignal.timeout(5_000) })
      .then(
        () => 'connected',
        (error: { cause?: unknown }) => String(error.cause ?? error),
      );
    pool.close();
    // Opening the name does not open the metadata address it resolves to.
    expect(refused).toContain('opened.test resolves to fd00:ec2::254, which is a cloud metadata address');
    const opened = new WebhookUrlPolicy(['opened.test']);
    expect(opened.allowsAddress('opened.test', 'fd00:ec2::254')).toBe(false);
    expect(opened.allowsAddress('opened.test', '::ffff:169.254.169.254')).toBe(false);
    // It opens every other address the name resolves to, link-local ones included.
    expect(opened.allowsAddress('opened.test', 'fe80::1')).toBe(true);
    expect(opened.allowsAddress('other.test', 'fe80::1')).toBe(false);
    expect(opened.allowsAddress('other.test', '10.0.0.5')).toBe(true);
    // Naming the metadata address itself opens it.
    expect(new WebhookUrlPolicy(['opened.test', 'fd00:ec2::254']).allowsAddress('opened.test', 'fd00:ec2::254')).toBe(true);
  });
});

describe('the attempt limiter', () => {
  /** Takes slots, writing down each label as its attempt starts (or `:refused` when the limiter closed first). */
  function recorder(limiter: AttemptLimiter) {
    const order: string[] = [];
    const take = (origin: string, label: string, organization = 'org_a:test') =>
      limiter.acquire(origin, organization).then(
        (release) => {
          order.push(label);
          return release;
        },
        (error: unknown) => {
          order.push(`${label}:${error instanceof LimiterClosedError ? 'refused' : 'error'}`);
          return () => undefined;
        },
      );
    return { order, take };
  }
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it('caps attempts per origin and overall, serves waiting origins in turn, and refuses the queue on close', async () => {
    const limiter = new AttemptLimiter({ perOrganization: 2, perOrigin: 2, total: 3 });
    const { order, take } = recorder(limiter);
    const a1 = take('a', 'a1');
    const a2 = take('a', 'a2');
    const a3 = take('a', 'a3');
    const b1 = take('b', 'b1');
    const b2 = take('b', 'b2');
    await settle();
    // a1 and a2 fill origin a; b1 takes the last global slot; a3 and b2 wait.
    expect(order).toEqual(['a1', 'a2', 'b1']);
    expect(limiter.active).toBe(3);
    // A freed slot goes first to an origin held back by the global cap: a receiver that keeps its own slots busy
    // cannot keep the others waiting.
    (await a1)();
    await b2;
    expect(order).toEqual(['a1', 'a2', 'b1', 'b2']);
    (await b1)();
    await a3;
    expect(order.at(-1)).toBe('a3');
    const a4 = take('a', 'a4');
    limiter.close();
    await a4;
    expect(order.at(-1)).toBe('a4:refused');
    (await a2)();
    (await a3)();
    (await b2)();
    expect(limiter.active).toBe(0);
  });

  it("gives each organization its own share of an origin: another's queue of hanging attempts never stands before it", async () => {
    const limiter = new AttemptLimiter({ perOrganization: 2, perOrigin: 3, total: 10 });
    const { order, take } = recorder(limiter);
    // Organization A queues 100 attempts to one origin; none of them ever ends.
    const held = Array.from({ length: 100 }, (_, i) => take('hanging', `A${i}`, 'org_a:test'));
    const b1 = take('hanging', 'B1', 'org_b:test');
    await settle();
    // A has its share (2); B starts at once, from the origin's third slot, ahead of A's 98 waiting.
    expect(order).toEqual(['A0', 'A1', 'B1']);
    // With the origin full, C waits; the next freed slot goes to the organization whose turn it is, not A's queue.
    const c1 = take('hanging', 'C1', 'org_c:test');
    const b2 = take('hanging', 'B2', 'org_b:test');
    await settle();
    expect(order).toHaveLength(3);
    (await held[0])?.();
    await settle();
    // A had its turn last (its queue was offered first when A0 ended): C is next, then B, then A again.
    (await b1)();
    await settle();
    (await c1)();
    await settle();
    expect(order.slice(3)).toEqual(['C1', 'B2', 'A2']);
    // Never more than the caps: 3 to the origin, 2 of them A's.
    expect(limiter.active).toBe(3);
    limiter.close();
    await Promise.all(held);
    expect(order.filter((label) => label.endsWith(':refused'))).toHaveLength(97);
    (await b2)();
  });
});

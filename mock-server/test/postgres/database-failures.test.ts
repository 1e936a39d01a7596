// A database failure at a chosen point of a request is answered 503 `state_not_saved` in the spec's error form, never
// 500, and the instance serves again by itself once the database answers
// (docs/standalone-server.md#when-the-database-goes-away). The points: a request waiting for webhook attempts outside
// its organization's lock (a clock advance whose deliveries are in flight), whose commit before the wait loses its
// connection, or whose way back into the lock finds the database gone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';
import { newKey } from '../support/keys.js';
import { type Answer, api, fundedCustomer, until } from './support/api.js';
import { commitFaultFired, takeDatabaseAway, terminateNextCommit } from './support/database-faults.js';
import { freshDatabase } from './support/databases.js';
import { startReceiver } from './support/receiver.js';

const FROZEN = '2026-11-21T12:00:00.000Z';

/** The spec's form of "the state could not be saved": 503, `Retry-After: 1`, the database named, a reason. */
function expectStateNotSaved(answer: Answer, where: string): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('1');
  expect(answer.body).toEqual({
    error: {
      code: 'state_not_saved',
      message: expect.stringContaining(where),
      details: { reason: expect.any(String) },
    },
  });
}

describe('a database failure inside a request', () => {
  let url: string;
  let server: RunningMockServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** `127.0.0.1:<port>/<database>`: how answers name the database. */
  let where: string;
  beforeAll(async () => {
    url = await freshDatabase('failures');
    server = await startMockServer({ port: 0, state: url, frozenClock: FROZEN, dashboard: false });
    receiver = await startReceiver();
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port}${parsed.pathname}`;
  });
  afterEach(() => receiver.hold(undefined));
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  /** An organization with a webhook for card.expired and a card that expires a minute from now. */
  async function expiringCard() {
    const call = api(server.url, newKey());
    expect((await call('POST', '/webhooks', { url: receiver.url, events: ['card.expired'] })).status).toBe(201);
    const customerId = await fundedCustomer(call, 1_000);
    const card = await call('POST', '/cards', { customerId, policy: { ttlMinutes: 1 } });
    expect(card.status, card.text).toBe(201);
    const expiries = async () => (await call('GET', '/events?type=card.expired&limit=100')).body.data.length as number;
    return { call, cardId: card.body.id as string, expiries };
  }

  it('answers 503 and keeps nothing when the commit before a wait for webhook attempts loses its connection', async () => {
    const { call, cardId, expiries } = await expiringCard();
    const clock = (await call('GET', '/simulate/clock')).body;
    await terminateNextCommit(url);

    // The advance expires the card, and waits for the card.expired delivery outside the lock: its changes so far are
    // committed then, and that commit is cut off.
    const advance = await call('POST', '/simulate/clock/advance', { seconds: 120 });
    expect(await commitFaultFired(url)).toBe(true);
    expectStateNotSaved(advance, where);

    // Nothing of it was kept: the clock, the card and the events are as before.
    expect((await call('GET', '/simulate/clock')).body).toEqual(clock);
    const card = await call('GET', `/cards/${cardId}`);
    expect(card.body.status).toBe('active');
    expect(await expiries()).toBe(0);

    // The same request again (the fault fired once): done once.
    const again = await call('POST', '/simulate/clock/advance', { seconds: 120 });
    expect(again.status, again.text).toBe(200);
    expect((await call('GET', `/cards/${cardId}`)).body.status).not.toBe('active');
    expect(await expiries()).toBe(1);
  });

  it("answers 503 and keeps nothing when the commit of a key's first request loses its connection", async () => {
    const call = api(server.url, newKey());
    await terminateNextCommit(url);
    const first = await call('POST', '/customers', { email: 'lost@example.com' });
    expect(await commitFaultFired(url)).toBe(true);
    expectStateNotSaved(first, where);

    // The organization that request made was not kept, here either: the key starts from nothing.
    const second = await call('POST', '/customers', { email: 'kept@example.com' });
    expect(second.status, second.text).toBe(201);
    const listed = await call('GET', '/customers?limit=100');
    expect(listed.body.data.map((customer: { email: string }) => customer.email)).toEqual(['kept@example.com']);
  });

  it('answers 503 when the database goes away while a request waits for webhook attempts, and serves again once back', async () => {
    const { call, expiries } = await expiringCard();
    let release: () => void = () => undefined;
    receiver.hold(new Promise<void>((resolve) => (release = resolve)));
    const before = receiver.received.length;
    const advancing = call('POST', '/simulate/clock/advance', { seconds: 120 });
    // The delivery is in flight (the advance waits outside the lock): the database goes, then the receiver answers.
    await until(() => receiver.received.length > before, 'the card.expired delivery', WAITS.ui);
    const away = await takeDatabaseAway(url);
    let back = false;
    try {
      release();
      const advance = await advancing;
      expectStateNotSaved(advance, where);
      // The reason is the database's, not a fault of the mock.
      expect(advance.body.error.details.reason).toMatch(/accepting connections|terminat|connect/i);
      // Any request meanwhile: 503 too, never 500.
      expectStateNotSaved(await call('GET', '/customers'), where);
      await away.back();
      back = true;
    } finally {
      if (!back) await away.back();
    }

    // Back: served again without a restart, and the expiry happened once (the part of the advance before its wait was
    // committed before the database went away).
    await until(async () => (await call('GET', '/customers')).status === 200, 'a 200 once the database is back', WAITS.ui);
    const again = await call('POST', '/simulate/clock/advance', { seconds: 120 });
    expect(again.status, again.text).toBe(200);
    expect(await expiries()).toBe(1);
  });
});

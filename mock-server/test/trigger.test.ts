// Making any event happen on demand: `mock.trigger(type, { client })` in the test kit, for every event type of both
// variants, received verified by the organization's webhooks; and `cardrail-mock trigger`, the built binary, against a
// running mock and a real receiver.
import { customerEventTypes, userEventTypes } from '@cardrail/spec/events';
import { unwrap } from '@cardrail/sdk/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type EventTypeOf } from '../src/index.js';
import { type CliProcess, killChildren, runCliToExit, startCli } from './support/cli-process.js';
import { newKey } from './support/keys.js';
import { startHttpReceiver, type Receiver } from './support/receiver.js';

describe('mock.trigger', () => {
  const mock = createMockServer();

  describe.each([
    { variant: 'customer' as const, types: customerEventTypes },
    { variant: 'user' as const, types: userEventTypes },
  ])('in the $variant variant', ({ variant, types }) => {
    it.each([...types])('%s reaches the organization webhook, signed, as GET /events answers it', async (type) => {
      const client = mock.client({ variant });
      const name = type as EventTypeOf<typeof client>;
      const inbox = await mock.webhookInbox({ client, events: [name] });
      const event = await mock.trigger(name, { client });
      expect(event.type).toBe(type);
      expect(await inbox.waitFor(name, (delivered) => delivered.id === event.id)).toEqual(event);
      expect(inbox.rejected).toEqual([]);
    });
  });

  it("refuses a type the client's variant does not have, naming what to do", async () => {
    await expect(mock.trigger('transaction.authorized' as never, { client: mock.client() })).rejects.toThrow(
      /transaction\.authorized is not an event type of the customer variant/,
    );
  });
});

describe('cardrail-mock trigger', () => {
  let server: CliProcess;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    server = await startCli(['--port', '0', '--no-dashboard']);
  });
  afterAll(async () => {
    for (const receiver of receivers) await receiver.close();
    await server.stop('SIGTERM');
  });
  // A trigger left running by a failed test is killed; the shared server lives until afterAll.
  afterEach(() => killChildren([server.child]));

  async function receiver(): Promise<Receiver> {
    const started = await startHttpReceiver();
    receivers.push(started);
    return started;
  }
  const trigger = (...args: string[]) => runCliToExit(['trigger', ...args, '--base-url', server.url]);

  it('delivers a signed card.frozen to --url that the SDK verifies, and reuses the subscription on the next run', async () => {
    const hook = await receiver();
    const key = newKey();
    const first = await trigger('card.frozen', '--url', hook.url, '--api-key', key);
    expect(first.code, first.output).toBe(0);
    const secret = /Subscribed \S+ to card\.frozen: wh_\w+, signing secret (whsec_[A-Za-z0-9]{32})/.exec(first.output)?.[1];
    expect(secret, first.output).toBeDefined();
    const eventId = /^card\.frozen (evt_\w+)$/m.exec(first.output)?.[1];
    expect(first.output).toMatch(new RegExp(`delivered to ${hook.url} \\(wh_\\w+\\): 200 in \\d+ ms`));
    const [delivery] = hook.received;
    const event = await unwrap(delivery?.body ?? '', delivery?.headers ?? {}, secret ?? '');
    expect(event).toMatchObject({ id: eventId, type: 'card.frozen', data: { reason: 'manual' } });

    const second = await trigger('card.frozen', '--url', hook.url, '--api-key', key);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('already subscribed');
    expect(second.output).not.toContain('signing secret');
    const again = hook.received.at(-1);
    await expect(unwrap(again?.body ?? '', again?.headers ?? {}, secret ?? '')).resolves.toMatchObject({ type: 'card.frozen' });
  });

  it("a first run with --secret, the receiver's own secret, exits 0 with a delivery the receiver verified", async () => {
    const secret = `whsec_${Buffer.from('a receiver configured before it is subscribed').toString('base64')}`;
    const hook = await receiver();
    hook.answer({ verifyWith: secret });
    const key = newKey();
    const first = await trigger('card.frozen', '--url', hook.url, '--secret', secret, '--api-key', key);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(/Subscribed \S+ to card\.frozen: wh_\w+, signing with the given secret/);
    expect(first.output).not.toContain(secret);
    expect(first.output).toMatch(new RegExp(`delivered to ${hook.url} \\(wh_\\w+\\): 204 in \\d+ ms`));
    expect(hook.received).toHaveLength(1);

    // Without --secret the first run ends refused by such a receiver (the secret is printed only after subscribing).
    const other = await receiver();
    other.answer({ verifyWith: secret });
    const refused = await trigger('card.frozen', '--url', other.url, '--api-key', newKey());
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/failed: 400/);

    // A later run with another secret replaces the subscription the first one made.
    const next = `whsec_${Buffer.from('a new secret the receiver was given later').toString('base64')}`;
    hook.answer({ verifyWith: next });
    const again = await trigger('card.frozen', '--url', hook.url, '--secret', next, '--api-key', key);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(/again, signing with the given secret: wh_\w+ \(replaces wh_\w+\)/);
  });

  it('refuses --secret without --url (2) and a secret the API does not take (1, naming the rule)', async () => {
    const alone = await trigger('card.frozen', '--secret', 'whsec_x');
    expect(alone.code).toBe(2);
    expect(alone.output).toContain('--secret is the signing secret of the --url receiver');
    const hook = await receiver();
    const short = await trigger(
      'card.frozen',
      '--url',
      hook.url,
      '--secret',
      `whsec_${btoa('too short')}`,
      '--api-key',
      newKey(),
    );
    expect(short.code).toBe(1);
    expect(short.output).toMatch(
      /invalid_request: .*body\/secret: .*\(--secret takes whsec_ and the standard base64 of 24 to 64 random bytes/,
    );
    expect(hook.received).toHaveLength(0);
  });

  it('triggers in the user variant, under its names, with the catalog envelope', async () => {
    const hook = await receiver();
    const result = await trigger('transaction.authorized', '--variant', 'user', '--url', hook.url, '--api-key', newKey());
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(hook.received[0]?.body ?? '{}')).toMatchObject({
      type: 'transaction.authorized',
      organizationId: expect.stringMatching(/^org_/),
    });
  });

  it('--list names every type of each variant and how it is made', async () => {
    for (const [variant, types] of [
      ['customer', customerEventTypes],
      ['user', userEventTypes],
    ] as const) {
      const listed = await runCliToExit(['trigger', '--list', '--variant', variant]);
      expect(listed.code).toBe(0);
      const names = listed.output
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.trim().split(/\s+/)[0]);
      expect(names).toEqual([...types]);
    }
  });

  it('exits 2 naming the closest types for an unknown one, and the other variant for its names', async () => {
    const unknown = await trigger('card.froze');
    expect(unknown.code).toBe(2);
    expect(unknown.output).toMatch(/unknown event type card\.froze for the customer variant; the closest: card\.frozen, /);
    const other = await trigger('transaction.authorized');
    expect(other.code).toBe(2);
    expect(other.output).toContain('pass --variant user (the customer variant calls it transaction.created)');
  });

  it('exits 2 for what it cannot do: a live key, a 25-hour wait without --advance-clock, a bad flag', async () => {
    const live = await trigger('card.frozen', '--api-key', 'sk_live_triggerlive01');
    expect(live).toMatchObject({ code: 2, output: expect.stringContaining('must be a test key') });
    const spike = await trigger('anomaly.spend_spike', '--api-key', newKey());
    expect(spike).toMatchObject({ code: 2, output: expect.stringContaining('pass --advance-clock') });
    const flag = await trigger('card.frozen', '--colour');
    expect(flag).toMatchObject({ code: 2, output: expect.stringContaining("Unknown option '--colour'") });
  });

  it('with --advance-clock, moves the test clock for anomaly.spend_spike', async () => {
    const result = await trigger('anomaly.spend_spike', '--advance-clock', '--api-key', newKey());
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/advanced the organization's test clock by \d+ (h|min|s) \(a day of baseline\)/);
    expect(result.output).toMatch(/^anomaly\.spend_spike evt_\w+$/m);
  });

  it('exits 1 when the --url receiver refuses the delivery, saying so', async () => {
    const hook = await receiver();
    hook.answer({ status: 400 });
    const result = await trigger('card.created', '--url', hook.url, '--api-key', newKey());
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/delivered to \S+ \(wh_\w+\): failed: 400/);
  });

  it('exits 1 when no mock answers, naming the address', async () => {
    const result = await runCliToExit(['trigger', 'card.frozen', '--base-url', 'http://127.0.0.1:9/v1']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('no mock answers at http://127.0.0.1:9/v1');
  });

  it('on a frozen test clock, advances it for an expiry instead of waiting', async () => {
    const frozen = await startCli(['--port', '0', '--no-dashboard', '--frozen-clock', '2026-11-21T12:00:00Z']);
    try {
      const result = await runCliToExit(['trigger', 'intent.expired', '--base-url', frozen.url, '--api-key', newKey()]);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain("advanced the organization's test clock by 1 min (the intent's time-to-live)");
      expect(result.output).toContain('No webhook of the organization subscribes to intent.expired');
    } finally {
      await frozen.stop('SIGTERM');
    }
  });
});

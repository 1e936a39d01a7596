// Chaos for several instances on one PostgreSQL database (docs/standalone-server.md#several-instances-on-one-database),
// each instance the built CLI in its own process, on a PostgreSQL server of this file's own: three instances under a
// mixed load (customers, authorizations on shared cards, cards that expire, clock advances, webhooks to a receiver that
// answers slowly), one killed with SIGKILL every few seconds and started again; then the database itself restarted
// under the load. What must hold: every write answered 2xx is found through another instance, each organization's
// balance is its funds minus what was approved and no answered approval is missing, no event reaches the receiver
// under two webhook-ids (a retry after a crash keeps its id), no card expires twice, the instances answer 503 while the
// database is away (never 2xx) and serve again by themselves once it is back, and no answer is a 500 (a database
// failure is 503 `state_not_saved`). When it fails, it prints each offending request with its answer and instance, and
// what every instance printed beside its request log (its errors), so that a failure in CI can be read from the log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgres } from '../../../scripts/lib/postgres-server.mjs';
import { WAITS } from '../../../scripts/lib/test-waits.mjs';
import { type CliProcess, killChildren, startCli } from '../support/cli-process.js';
import { FROZEN_AT, newKey } from '../support/keys.js';
import { api, fundedCustomer, until } from './support/api.js';
import { startReceiver } from './support/receiver.js';

const FUNDS = 12_000;
/** A line of an instance's request log (`--log`): method, path, outcome, time, Request-Id. */
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+ \S+ [\d.]+ms (\S+)/;
/** The most an instance's printed errors take in a failure's report, in characters (the latest kept). */
const PRINTED_LIMIT = 20_000;
const ORGANIZATIONS = 3;
const INSTANCES = 3;
const LOOPS = 6;

/** An answer the load did not expect (not 2xx, not 503) or did not allow (2xx while the database was away). */
interface Offending {
  request: string;
  instance: string;
  status: number | string;
  requestId: string | null;
  text: string;
}

/** What an instance printed but its request log (errors and their stacks), and its log lines of `requestIds`. */
function printedBy(output: string, requestIds: ReadonlySet<string>): string {
  const lines = output.split('\n').filter((line) => {
    const logged = REQUEST_LINE.exec(line);
    return !logged || requestIds.has(logged[2] ?? '');
  });
  const text = lines.join('\n').trim();
  return text.length > PRINTED_LIMIT ? `...${text.slice(-PRINTED_LIMIT)}` : text;
}

interface Organization {
  key: string;
  customerId: string;
  cardId: string;
  customers: string[];
  approved: Map<string, number>;
  ttlCards: string[];
}

describe('three instances on one database, killed and restarted under load', () => {
  let database: PostgresServer;
  let url: string;
  const instances: (CliProcess | undefined)[] = [];
  /** Every instance started, killed ones too, for a failure's report. */
  const everStarted: { slot: number; cli: CliProcess }[] = [];
  beforeAll(async () => {
    database = await startPostgres();
    url = database.urlOf('postgres');
  });
  afterAll(async () => {
    killChildren();
    await database?.close();
  });

  const start = (slot: number) =>
    startCli(['--port', '0', '--state', url, '--frozen-clock', FROZEN_AT, '--no-dashboard', '--log']).then((cli) => {
      instances[slot] = cli;
      everStarted.push({ slot, cli });
      return cli;
    });
  const live = () => instances.filter((instance): instance is CliProcess => instance !== undefined);
  const pick = (not?: string) => {
    const choices = live().filter((instance) => instance.url !== not);
    return choices[Math.floor(Math.random() * choices.length)]?.url ?? '';
  };

  it('loses no answered write, never overspends, delivers and expires once, and rides out a database restart', async ({
    onTestFailed,
  }) => {
    /** Answers other than 2xx and 503 (a client's mistake in the load, or a 500): none expected. */
    const unexpected: Offending[] = [];
    /** Answers 2xx while the database was away: none allowed. */
    const whileAway: Offending[] = [];
    onTestFailed(() => {
      const offending = [...unexpected, ...whileAway];
      const ids = new Set(offending.flatMap((answer) => (answer.requestId ? [answer.requestId] : [])));
      const report = [
        `offending answers (${offending.length}):`,
        ...offending.map((a) => `  ${a.request} via ${a.instance}: ${a.status} Request-Id ${a.requestId} ${a.text}`),
        ...everStarted.map(
          ({ slot, cli }) => `--- instance in slot ${slot} (${cli.url}) printed:\n${printedBy(cli.output(), ids) || '(nothing)'}`,
        ),
      ];
      console.error(report.join('\n'));
    });
    for (let slot = 0; slot < INSTANCES; slot++) await start(slot);
    const receiver = await startReceiver();
    // Slow answers: attempts are in flight when their instance is killed.
    receiver.stall(150);
    const organizations: Organization[] = [];
    for (let i = 0; i < ORGANIZATIONS; i++) {
      const key = newKey();
      const call = api(pick(), key);
      const hook = await call('POST', '/webhooks', { url: receiver.url, events: ['card.expired', 'transaction.created'] });
      expect(hook.status).toBe(201);
      const customerId = await fundedCustomer(call, FUNDS);
      const card = await call('POST', '/cards', { customerId });
      expect(card.status).toBe(201);
      organizations.push({ key, customerId, cardId: card.body.id, customers: [], approved: new Map(), ttlCards: [] });
    }

    // The load: each loop sends to a random live instance; an answer lost with its instance is not an answer.
    let stopped = false;
    const statuses = new Map<number, number>();
    /** Answers with the times their request was sent and answered: [sentAt, status, answeredAt, the answer]. */
    const timeline: [number, number, number, Offending][] = [];
    let count = 0;
    let lost = 0;
    const inFlight = new Set<string>();
    const lostWhy = new Set<string>();
    const loops = Array.from({ length: LOOPS }, async () => {
      while (!stopped) {
        const n = count++;
        const org = organizations[n % ORGANIZATIONS] as Organization;
        const instance = pick();
        const sent: { request: string } = { request: '' };
        const call = async (method: string, path: string, body?: unknown) => {
          sent.request = `${method} ${path} ${JSON.stringify(body)} (key ...${org.key.slice(-4)})`;
          return api(instance, org.key)(method, path, body);
        };
        const sentAt = Date.now();
        const flight = `${n % 10} ${org.key.slice(-4)}`;
        inFlight.add(flight);
        try {
          const kind = n % 10;
          let answer: Awaited<ReturnType<typeof call>>;
          if (kind < 4) {
            answer = await call('POST', '/customers', { email: `c${n}@example.com` });
            if (answer.status === 201) org.customers.push(answer.body.id);
          } else if (kind < 8) {
            answer = await call('POST', '/simulate/authorize', {
              cardId: org.cardId,
              amount: 50 + (n % 5) * 50,
              currency: 'usd',
              merchant: { name: 'Chaos' },
            });
            if (answer.status === 200 && answer.body.status === 'pending') org.approved.set(answer.body.id, answer.body.amount);
          } else if (kind === 8) {
            answer = await call('POST', '/cards', { customerId: org.customerId, policy: { ttlMinutes: 1 } });
            if (answer.status === 201) org.ttlCards.push(answer.body.id);
          } else {
            answer = await call('POST', '/simulate/clock/advance', { seconds: 30 });
          }
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const seen = {
            ...sent,
            instance,
            status: answer.status,
            requestId: answer.headers.get('request-id'),
            text: answer.text,
          };
          timeline.push([sentAt, answer.status, Date.now(), seen]);
          if (answer.status >= 300 && answer.status !== 503) unexpected.push(seen);
        } catch (error) {
          // The connection ended with its instance (killed): nothing was answered.
          if (!(error instanceof TypeError))
            unexpected.push({ ...sent, instance, status: 'threw', requestId: null, text: String(error) });
          else lostWhy.add(`${String((error as { cause?: unknown }).cause)}`);
          lost++;
        } finally {
          inFlight.delete(flight);
        }
      }
    });

    // kill -9 of one instance every few seconds, started again at once.
    const progress = () =>
      `${count} requests (${lost} lost, statuses ${JSON.stringify([...statuses])}, ${unexpected.length} unexpected) in flight ${[...inFlight].join(', ')} (lost: ${[...lostWhy].join('; ')})`;
    for (let round = 0; round < 4; round++) {
      const before = count;
      await until(
        () => count >= before + 150,
        () => `load between kills: ${progress()}`,
        WAITS.ui,
      );
      const slot = round % INSTANCES;
      await instances[slot]?.stop('SIGKILL');
      instances[slot] = undefined;
      await start(slot);
    }

    // The database restarted under load: 503 while it is away, 2xx again without anyone's help once it is back.
    const beforeStop = count;
    await until(() => count >= beforeStop + 50, 'load before the database stops', WAITS.ui);
    await database.stop('fast');
    const downSince = Date.now();
    await until(() => timeline.some(([sentAt, status]) => sentAt > downSince && status === 503), 'a 503 while away', WAITS.ui);
    const upFrom = Date.now();
    await database.start();
    await until(() => timeline.some(([sentAt, status]) => sentAt > upFrom && status < 300), 'a 2xx once back', WAITS.ui);
    // A request sent while it was away may wait for it and succeed once it is back; none is answered 2xx meanwhile.
    // One sent before it stopped may have been committed just before and answered while it stopped: whether its write
    // was kept is checked below with every other 2xx.
    for (const [sentAt, status, answeredAt, answer] of timeline) {
      if (sentAt > downSince && answeredAt < upFrom && status < 300) whileAway.push(answer);
    }
    expect(whileAway, 'answered 2xx while the database was away').toEqual([]);
    const afterBack = count;
    await until(() => count >= afterBack + 100, 'load after the database is back', WAITS.ui);
    stopped = true;
    await Promise.all(loops);
    expect(unexpected).toEqual([]);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(100);

    // Every ttl card made due (the test clock moved on by far more than a minute) and none expired twice.
    for (const org of organizations) {
      const call = api(pick(), org.key);
      expect((await call('POST', '/simulate/clock/advance', { seconds: 120 })).status).toBe(200);
    }

    for (const org of organizations) {
      const call = api(pick(), org.key);
      for (const id of org.customers) expect((await call('GET', `/customers/${id}`)).status, id).toBe(200);
      for (const id of org.approved.keys()) {
        const stored = await call('GET', `/transactions/${id}`);
        expect(stored.status, id).toBe(200);
        expect(stored.body.status).toBe('pending');
      }
      const approvedSum = [...org.approved.values()].reduce((sum, amount) => sum + amount, 0);
      const balance = (await call('GET', `/customers/${org.customerId}/balances`)).body;
      // An approval answered 503 may be stored (its commit in doubt), one answered 200 is: pending covers them all.
      expect(balance.available + balance.pending).toBe(FUNDS);
      expect(balance.available).toBeGreaterThanOrEqual(0);
      expect(balance.pending).toBeGreaterThanOrEqual(approvedSum);
      const expired = new Map<string, number>();
      let page = (await call('GET', '/events?type=card.expired&limit=100')).body;
      for (;;) {
        for (const event of page.data) expired.set(event.data.cardId, (expired.get(event.data.cardId) ?? 0) + 1);
        if (!page.nextCursor) break;
        page = (await call('GET', `/events?type=card.expired&limit=100&cursor=${page.nextCursor}`)).body;
      }
      expect(
        [...expired.values()].filter((times) => times > 1),
        'cards expired twice',
      ).toEqual([]);
      for (const id of org.ttlCards) expect(expired.get(id), `expiry of ${id}`).toBe(1);
    }

    // Deliveries: an event reaches the receiver under one webhook-id only (a retry after a crash keeps its id).
    const idsOfEvent = new Map<string, Set<string>>();
    for (const entry of receiver.received) {
      const ids = idsOfEvent.get(entry.eventId) ?? new Set();
      ids.add(entry.webhookId);
      idsOfEvent.set(entry.eventId, ids);
    }
    expect(receiver.received.length).toBeGreaterThan(0);
    expect([...idsOfEvent].filter(([, ids]) => ids.size > 1)).toEqual([]);
    if (process.env.CARDRAIL_CHAOS_REPORT) {
      const retried = receiver.received.length - new Set(receiver.received.map((entry) => entry.webhookId)).size;
      console.log(`chaos: ${progress()}; ${receiver.received.length} webhook posts, ${retried} retried under the same id`);
    }
    await receiver.close();
    for (const instance of live()) expect(await instance.stop('SIGTERM')).toBe(0);
  });
});

// `cardrail-mock --state <dir>` (docs/standalone-server.md#durable-state), run as a user runs it: everything answered
// survives kill -9, and a clean SIGTERM records the webhook attempts it could not finish as pending; they are
// delivered after the restart. Uses the built dist/ (the root `npm test` builds before testing).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasNodeSqlite } from '../src/adapters/sqlite/node-sqlite.js';
import { killChildren, runCliToExit, startCli } from './support/cli-process.js';
import { FROZEN_AT, newKey } from './support/keys.js';
import { startHttpReceiver, type Receiver } from './support/receiver.js';
import { tempDirs } from './support/temp-dirs.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

afterEach(() => killChildren());
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) {
    receiver.release();
    await receiver.close();
  }
});

/** A new directory for a state store, removed after the file's tests. */
const stateDir = tempDirs('cardrail-state-');

async function receiver(): Promise<Receiver> {
  const started = await startHttpReceiver();
  receivers.push(started);
  return started;
}

function client(url: string, key: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = WAITS.ui): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.runIf(!hasNodeSqlite())(`cardrail-mock --state on Node.js ${process.versions.node} (no node:sqlite)`, () => {
  it('refuses to start, naming the Node.js version it needs', async () => {
    const dir = stateDir();
    const { code, output } = await runCliToExit(['--port', '0', '--state', dir]);
    expect(code).toBe(1);
    expect(output).toContain('--state needs Node.js 22.13 or newer');
    expect(output).toContain(`this Node.js (${process.version})`);
    expect(output).not.toMatch(/listening on/);
  });

  it('runs without --state, and the state commands say what they need', async () => {
    const started = await startCli(['--port', '0']);
    expect(await started.stop('SIGTERM')).toBe(0);
    const { code, output } = await runCliToExit(['state', 'check', stateDir()]);
    expect(code).toBe(1);
    expect(output).toContain('needs Node.js 22.13 or newer');
  });
});

describe.runIf(hasNodeSqlite())('cardrail-mock --state (node:sqlite, Node.js 22.13+)', () => {
  it('keeps everything it answered through kill -9, and resumes pending webhook retries on their schedule', async () => {
    const dir = stateDir();
    const hooks = await receiver();
    hooks.answer({ status: 500 });
    const first = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT]);
    const key = newKey();
    const api = client(first.url, key);
    const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const answer = await api(method, path, body, headers);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
      return JSON.parse(answer.text) as Record<string, any>;
    };
    await json('POST', '/webhooks', { url: hooks.url, events: ['card.created'] });
    const customer = await json('POST', '/customers', { email: 'ada@example.com' }, { 'Idempotency-Key': 'first-customer' });
    await json('POST', '/simulate/kyc', { customerId: customer.id, status: 'approved' });
    await json('POST', '/simulate/deposits', { customerId: customer.id, amount: 100_000 });
    const agent = await json('POST', '/agents', {
      customerId: customer.id,
      name: 'Buyer',
      limits: { amount: 10_000, currency: 'usd', interval: 'daily' },
    });
    const card = await json('POST', '/cards', {
      customerId: customer.id,
      agentId: agent.id,
      policy: { limits: { perDay: 9_000 } },
    });
    const txn = await json('POST', '/simulate/authorize', {
      cardId: card.id,
      amount: 8_000,
      currency: 'usd',
      merchant: { name: 'OpenAI' },
    });
    await json('POST', `/simulate/transactions/${txn.id}/settle`, {});
    await json('PATCH', '/settings/risk', { preset: 'strict', dryRun: true });
    const live = await json('POST', '/api-keys', { name: 'live', mode: 'live' });
    const old = await json('POST', '/api-keys', { name: 'old' });
    await json('DELETE', `/api-keys/${old.id}`);
    await json('POST', '/simulate/clock/advance', { seconds: 60 });
    await until(() => hooks.received.length === 1, 'the first delivery attempt');
    const reads = [
      '/cards?limit=100',
      '/transactions?limit=100',
      `/customers/${customer.id}/balances`,
      '/settings/risk',
      '/simulate/clock',
      '/api-keys',
      `/cards/${card.id}/policy`,
    ];
    const before = await Promise.all(reads.map((path) => api('GET', path)));

    // A burst of creations; the process is killed while some are still in flight.
    const answered: string[] = [];
    const burst = Array.from({ length: 150 }, (_, i) =>
      api('POST', '/customers', { email: `burst${i}@example.com` }).then(
        (answer) => {
          if (answer.status === 201) answered.push((JSON.parse(answer.text) as { id: string }).id);
        },
        () => undefined,
      ),
    );
    await until(() => answered.length >= 60, 'some of the burst to be answered');
    first.child.kill('SIGKILL');
    await Promise.all(burst);
    expect(answered.length).toBeGreaterThanOrEqual(60);

    hooks.answer({ status: 200 });
    const second = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT]);
    expect(second.output()).toMatch(/Opened the state in .+: \d+ records of 2 organizations/);
    const again = client(second.url, key);
    for (const [index, path] of reads.entries()) {
      expect((await again('GET', path)).text, path).toBe(before[index]?.text);
    }
    for (const id of answered) expect((await again('GET', `/customers/${id}`)).status, id).toBe(200);
    const replay = await again('POST', '/customers', { email: 'ada@example.com' }, { 'Idempotency-Key': 'first-customer' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(JSON.parse(replay.text)).toEqual(customer);
    expect((await client(second.url, live.key as string)('GET', '/customers')).status).toBe(200);
    // The limits still count the spend made before the crash: 8,000 of the card's 9,000 per day.
    const declined = await again('POST', '/simulate/authorize', {
      cardId: card.id,
      amount: 1_500,
      currency: 'usd',
      merchant: { name: 'OpenAI' },
    });
    expect(JSON.parse(declined.text)).toMatchObject({ status: 'declined' });
    // The failed delivery's retry was due 5 minutes after its first attempt, on the test clock.
    expect(hooks.received).toHaveLength(1);
    await again('POST', '/simulate/clock/advance', { seconds: 300 });
    await until(() => hooks.received.length === 2, 'the retry after the restart');
    expect(hooks.received[1]?.body).toBe(hooks.received[0]?.body);
    expect(await second.stop('SIGTERM')).toBe(0);
  });

  it('replays fixtures into a directory without a state only, and goes on from them after a restart', async () => {
    const dir = stateDir();
    const file = join(stateDir(), 'fixtures.json');
    const key = 'sk_test_statefixtures1';
    writeFileSync(
      file,
      JSON.stringify({
        apiKey: key,
        seed: 'fixtures',
        requests: [{ method: 'POST', path: '/customers', body: { email: 'ada@example.com' } }],
      }),
    );
    const first = await startCli(['--port', '0', '--state', dir, '--fixtures', file, '--frozen-clock', FROZEN_AT]);
    expect(first.output()).toContain('Loaded 1 fixture requests');
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await startCli(['--port', '0', '--state', dir, '--fixtures', file, '--frozen-clock', FROZEN_AT]);
    expect(second.output()).toMatch(/Opened the state in .+: \d+ records of 1 organization, each read when first used/);
    expect(second.output()).not.toContain('Loaded');
    const listed = JSON.parse((await client(second.url, key)('GET', '/customers')).text) as { data: unknown[] };
    expect(listed.data).toHaveLength(1);
    expect(await second.stop('SIGTERM')).toBe(0);
  });

  it('records deliveries still in flight at SIGTERM as pending, and delivers them after the restart', async () => {
    const dir = stateDir();
    const hooks = await receiver();
    hooks.answer('hang');
    const first = await startCli(['--port', '0', '--state', dir, '--drain-timeout', '300', '--frozen-clock', FROZEN_AT]);
    const key = newKey();
    const api = client(first.url, key);
    const webhook = JSON.parse((await api('POST', '/webhooks', { url: hooks.url, events: ['*'] })).text) as { id: string };
    await api('POST', '/customers', { email: 'ada@example.com' });
    await until(() => hooks.received.length === 2, 'both deliveries to reach the receiver');
    const started = Date.now();
    expect(await first.stop('SIGTERM')).toBe(0);
    // It waited for the attempts (up to --drain-timeout), then stopped without them.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    hooks.answer({ status: 200 });
    const second = await startCli(['--port', '0', '--state', dir, '--frozen-clock', FROZEN_AT]);
    await until(() => hooks.received.length === 4, 'the deliveries to be made again after the restart');
    const ids = (deliveries: { body: string }[]) =>
      deliveries.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id).sort();
    expect(ids(hooks.received.slice(2))).toEqual(ids(hooks.received.slice(0, 2)));
    const again = client(second.url, key);
    const records = JSON.parse((await again('GET', `/webhooks/${webhook.id}/deliveries`)).text) as {
      data: { status: string; attempts: { outcome: string }[] }[];
    };
    expect(records.data.map((record) => [record.status, record.attempts.map((attempt) => attempt.outcome)])).toEqual([
      ['succeeded', ['succeeded']],
      ['succeeded', ['succeeded']],
    ]);
    expect(await second.stop('SIGTERM')).toBe(0);
  });
});

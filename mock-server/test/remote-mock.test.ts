import { Cardrail, CardrailUsers } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMock, ControlError, type RemoteMock, startMockServer } from '../src/adapters/node.js';
import { type CliIo, runCli } from '../src/cli/serve-command.js';
import type { RunningMockServer } from '../src/adapters/node.js';
import { createMockServer } from '../src/index.js';
import { testKitSuite } from './support/test-kit-suite.js';

const TOKEN = 'control-token-for-tests-0123456789';

const inProcess = createMockServer();
testKitSuite('in-process', () => ({
  mock: inProcess,
  appClient: (apiKey, maxRetries = 0) =>
    new Cardrail({ apiKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch: inProcess.handle, maxRetries }),
  appUsersClient: (apiKey) =>
    new CardrailUsers({ apiKey, baseUrl: 'http://127.0.0.1:4010/v1', fetch: inProcess.handle, maxRetries: 0 }),
}));

describe('across processes: connectMock against cardrail-mock --control', () => {
  let running: RunningMockServer;
  let remote: RemoteMock;
  const lines: string[] = [];
  beforeAll(async () => {
    const io: CliIo = { out: (text) => lines.push(...text.split('\n').filter(Boolean)), onSignal: () => undefined };
    const started = await runCli(['--port', '0', '--control', '--control-token', TOKEN, '--no-dashboard'], io);
    if (!started) throw new Error('the CLI did not start');
    running = started.running;
    remote = await connectMock(running.url, { token: TOKEN });
  });
  afterAll(async () => {
    await remote?.close();
    await running?.close();
  });

  testKitSuite('remote', () => ({
    mock: remote,
    appClient: (apiKey, maxRetries = 0) => new Cardrail({ apiKey, baseUrl: running.url, maxRetries }),
    appUsersClient: (apiKey) => new CardrailUsers({ apiKey, baseUrl: running.url, maxRetries: 0 }),
  }));

  it('announces the control API without printing a token it was given', () => {
    expect(lines).toContain(`Control API: ${running.control?.url} (token from --control-token or CARDRAIL_CONTROL_TOKEN)`);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });

  it('refuses control calls without the token, and bad input in the API’s error format', async () => {
    const base = running.control?.url ?? '';
    const post = (path: string, body: string, token = TOKEN) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      });
    const unauthorized = await fetch(`${base}/snapshot`);
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.json()).toEqual({ error: 'unauthorized' });
    expect((await post('/reset', '', 'wrong-token-wrong-token')).status).toBe(401);

    const unknown = await post('/faults', JSON.stringify({ operation: 'createCards', status: 503 }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: expect.stringContaining('the closest are createCard'),
        details: { field: '/body/operation', reason: expect.stringContaining('createCard') },
      },
    });
    for (const [path, body, field] of [
      ['/faults', '{', '/body'],
      ['/faults', '{"status": 418}', '/body/status'],
      ['/clock/advance', '{"seconds": -1}', '/body/seconds'],
      ['/clock/advance', 'null', '/body/seconds'],
    ] as const) {
      const answer = await post(path, body);
      expect(answer.status, `${path} ${body}`).toBe(400);
      expect(((await answer.json()) as { error: { details: { field: string } } }).error.details.field).toBe(field);
    }
    const restore = await fetch(`${base}/snapshot`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ format: 'cardrail-mock-state', version: 1, sharedOffsetMs: 0, random: null, tenants: [{}] }),
    });
    expect(restore.status).toBe(400);
    expect((await fetch(`${base}/nowhere`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await fetch(`${base}/faults/%zz`, { method: 'DELETE', headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(
      404,
    );
    const wrongMethod = await fetch(`${base}/reset`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const organization = await fetch(`${base}/organization`, {
      headers: { Authorization: `Bearer ${TOKEN}`, 'Cardrail-Api-Key': 'sk_test_neverused000' },
    });
    expect(organization.status).toBe(404);
  });

  it('lists the events and deliveries of an organization, and the faults', async () => {
    const cardrail = remote.client();
    const apiKey = (await cardrail.apiKeys.create({ name: 'second' })).key;
    const inbox = await remote.webhookInbox({ client: cardrail });
    const customer = await cardrail.customers.create({ email: 'events@example.com' });
    await inbox.waitFor('user.created', undefined, { timeoutMs: 10_000 });
    await remote.idle();
    expect(
      (await remote.events.list({ apiKey, type: 'user.created' })).map((event) => (event.data as { userId: string }).userId),
    ).toEqual([customer.id]);
    expect(await remote.deliveries(apiKey)).toEqual(
      expect.arrayContaining([expect.objectContaining({ eventType: 'user.created', status: 'succeeded' })]),
    );
    const fault = await remote.faults.inject({ apiKey, operation: 'getCustomer', delayMs: 10 });
    expect(await remote.faults.list()).toEqual([expect.objectContaining({ id: fault.id, scopedToKey: true, delayMs: 10 })]);
    expect((await fault.info())?.hits).toBe(0);
    await fault.clear();
    expect(await fault.info()).toBeUndefined();
    expect(await remote.faults.remove(fault.id)).toBe(false);
  });

  it('drops the connection on the standalone server', async () => {
    const apiKey = 'sk_test_remotedrop01';
    await remote.faults.inject({ apiKey, operation: 'listCustomers', drop: true, times: 1 });
    await expect(fetch(`${running.url}/customers`, { headers: { Authorization: `Bearer ${apiKey}` } })).rejects.toThrow(
      TypeError,
    );
  });

  it('serves its OpenAPI document, whose paths are the routes it answers', async () => {
    const document = (await (await fetch(`${running.control?.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item).filter((name) => name !== 'parameters')) {
        const answer = await fetch(`${running.control?.url}${path.replace('{faultId}', 'flt_none')}`, {
          method: method.toUpperCase(),
        });
        // Documented: it exists (401 without the token), never 404 or 405.
        expect(answer.status, `${method} ${path}`).toBe(401);
      }
    }
  });

  it('fails to connect with the reason', async () => {
    await expect(connectMock(running.url, { token: 'not-the-token-0000' })).rejects.toBeInstanceOf(ControlError);
  });
});

describe('control of startMockServer', () => {
  it('is off unless asked for, refused on a non-loopback bind without an explicit flag, and prints a random token', async () => {
    const plain = await startMockServer({ port: 0, dashboard: false });
    try {
      expect(plain.control).toBeUndefined();
      expect((await fetch(`${plain.url.replace('/v1', '')}/__cardrail/snapshot`)).status).toBe(404);
    } finally {
      await plain.close();
    }
    await expect(startMockServer({ port: 0, host: '0.0.0.0', control: true })).rejects.toThrow(/--control-allow-remote/);
    await expect(
      runCli(['--port', '0', '--host', '0.0.0.0', '--control'], { out: () => undefined, onSignal: () => undefined }),
    ).rejects.toThrow(/would let other machines/);
    const lines: string[] = [];
    const started = await runCli(['--port', '0', '--control', '--no-dashboard'], {
      out: (t) => lines.push(t),
      onSignal: () => undefined,
    });
    try {
      const token = started?.running.control?.token ?? '';
      expect(token).toMatch(/^[0-9a-f]{64}$/);
      expect(lines.join('')).toContain(`(token ${token})`);
      const remote = await connectMock(started?.running.url ?? '', { token });
      expect(await remote.faults.list()).toEqual([]);
      await remote.close();
    } finally {
      await started?.running.close();
    }
  });
});

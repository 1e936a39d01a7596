// `mock.stop()` (docs/testing.md#stopping-the-mock): from the call on, the mock answers every request 503
// `service_unavailable` with `details.reason` "stopped", through every transport, and runs nothing of it.
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { unhandled } from '../../scripts/vitest-msw.mjs';
import { createHandlers } from '../src/adapters/msw.js';
import { startMockServer } from '../src/adapters/node.js';
import type { ApiRequest } from '../src/operations/api-request.js';
import { createMockServer } from '../src/composition/create-mock-server.js';
import { newKey } from './support/keys.js';
import { memoryStore } from './support/memory-store.js';

const base = 'http://127.0.0.1:4010/v1';

function createCustomer(key: string): Request {
  return new Request(`${base}/customers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com' }),
  });
}

function dispatched(key: string): ApiRequest {
  const bodyText = JSON.stringify({ email: 'bob@example.com' });
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    method: 'POST',
    url: `${base}/customers`,
    headers: { get: (name) => headers[name.toLowerCase()] ?? null },
    bodyText,
    text: () => Promise.resolve(bodyText),
  };
}

async function expectStopped(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get('request-id')).toMatch(/^req_/);
  expect(await response.json()).toMatchObject({ error: { code: 'service_unavailable', details: { reason: 'stopped' } } });
}

describe.each([
  ['in memory', () => createMockServer()],
  ['with a durable store', () => createMockServer({ journal: memoryStore() })],
])('a stopped mock (%s)', (_name, make) => {
  it('answers 503 service_unavailable through handle, dispatch and the test kit, and changes nothing', async () => {
    const mock = make();
    const key = newKey();
    expect((await mock.handle(createCustomer(key))).status).toBe(201);
    const before = mock.snapshot();
    await mock.stop(0);

    await expectStopped(await mock.handle(createCustomer(key)));
    const answer = await mock.dispatch(dispatched(key));
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'service_unavailable' } });
    // A read is refused too, and a key the mock never saw makes no organization.
    await expectStopped(await mock.handle(new Request(`${base}/customers`, { headers: { Authorization: `Bearer ${key}` } })));
    await expectStopped(await mock.handle(createCustomer(newKey())));
    const client = mock.client({ apiKey: key, maxRetries: 0 });
    await expect(client.customers.list()).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });

    expect(mock.snapshot()).toEqual(before);
    expect(mock.events.list({ apiKey: key })).toHaveLength(2);
  });
});

describe('a stopped mock behind MSW and the Node server', () => {
  it('answers 503 through the MSW handlers', async () => {
    const mock = createHandlers();
    const server = setupServer(...mock.handlers);
    server.listen(unhandled('error'));
    try {
      const key = newKey();
      expect((await fetch(createCustomer(key))).status).toBe(201);
      await mock.stop(0);
      await expectStopped(await fetch(createCustomer(key)));
      expect(mock.events.list({ apiKey: key })).toHaveLength(2);
    } finally {
      server.close();
    }
  });

  it("answers 503 through the closed server's mock, in-process", async () => {
    const running = await startMockServer({ port: 0 });
    const key = newKey();
    const created = await fetch(`${running.url}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(created.status).toBe(201);
    await running.close();
    await expectStopped(await running.mock.handle(createCustomer(key)));
  });
});

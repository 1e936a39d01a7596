// What the transports add around the one handler: `dispatch` answers without a promise when nothing had to wait,
// HEAD is GET without the body, and the Node server reads a body however it is split on the wire.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Directory } from '../src/core/directory.js';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { createMockServer } from '../src/composition/create-mock-server.js';
import type { ApiRequest } from '../src/operations/api-request.js';
import { newKey } from './support/keys.js';

function apiRequest(method: string, path: string, key: string, body?: unknown, extra: Record<string, string> = {}): ApiRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra };
  const bodyText = body === undefined ? '' : JSON.stringify(body);
  return {
    method,
    url: `http://127.0.0.1:4010/v1${path}`,
    headers: { get: (name) => headers[name.toLowerCase()] ?? null },
    bodyText,
    text: () => Promise.resolve(bodyText),
  };
}

describe('mock.dispatch', () => {
  it('answers a read, and a create whose body is already read, without a promise once the operation is loaded', async () => {
    const mock = createMockServer();
    const key = newKey();
    // The first request of an operation waits for its validators to load; every later one finds them ready.
    const first = mock.dispatch(apiRequest('POST', '/customers', key, { email: 'first@example.com' }));
    expect(first).toBeInstanceOf(Promise);
    const firstCustomer = JSON.parse((await first).body) as { id: string };
    expect((await mock.dispatch(apiRequest('GET', `/customers/${firstCustomer.id}`, key))).status).toBe(200);

    const created = mock.dispatch(apiRequest('POST', '/customers', key, { email: 'ada@example.com' }));
    expect(created).not.toBeInstanceOf(Promise);
    const customer = JSON.parse((created as { body: string }).body) as { id: string };
    const read = mock.dispatch(apiRequest('GET', `/customers/${customer.id}`, key));
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toMatchObject({ status: 200, headers: { 'Content-Type': 'application/json' } });
    expect(JSON.parse((read as { body: string }).body)).toMatchObject({ id: customer.id, email: 'ada@example.com' });
  });

  it("authenticates an operation's first request once, though it waits for the operation's checks to load", async () => {
    const mock = createMockServer();
    const key = newKey();
    const authenticate = vi.spyOn(Directory.prototype, 'authenticate');
    try {
      const first = mock.dispatch(apiRequest('GET', '/customers', key));
      expect(first).toBeInstanceOf(Promise);
      expect((await first).status).toBe(200);
      expect(authenticate).toHaveBeenCalledTimes(1);
      expect((await mock.dispatch(apiRequest('GET', '/customers', key))).status).toBe(200);
      expect(authenticate).toHaveBeenCalledTimes(2);
    } finally {
      authenticate.mockRestore();
    }
  });

  it('waits, and replays, when the request carries an Idempotency-Key', async () => {
    const mock = createMockServer();
    const key = newKey();
    const once = () =>
      mock.dispatch(apiRequest('POST', '/customers', key, { email: 'ada@example.com' }, { 'idempotency-key': 'k1' }));
    const first = once();
    expect(first).toBeInstanceOf(Promise);
    const second = await once();
    expect(second.headers['Idempotent-Replayed']).toBe('true');
    expect(second.body).toBe((await first).body);
  });
});

describe('HEAD and bodies over the transports', () => {
  let running: RunningMockServer;
  const key = newKey();
  beforeAll(async () => {
    running = await startMockServer({ port: 0 });
  });
  afterAll(() => running.close());

  it('answers HEAD like GET without the body, through handle and over HTTP', async () => {
    const headers = { Authorization: `Bearer ${key}` };
    const get = await fetch(`${running.url}/customers`, { headers });
    const getBody = await get.text();
    const head = await fetch(`${running.url}/customers`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
    expect(await head.text()).toBe('');
    const inProcess = await running.mock.handle(new Request(`${running.url}/customers`, { method: 'HEAD', headers }));
    expect(inProcess.status).toBe(200);
    expect(inProcess.body).toBeNull();
  });

  it('reads a chunked body split inside a multi-byte character', async () => {
    const json = Buffer.from(JSON.stringify({ email: 'zoe@example.com', name: { first: 'Zoë' } }));
    const split = json.indexOf(Buffer.from('ë')) + 1; // between the two bytes of "ë"
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(`${running.url}/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      });
      outgoing.on('response', (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
      });
      outgoing.on('error', reject);
      outgoing.write(json.subarray(0, split));
      setTimeout(() => outgoing.end(json.subarray(split)), 20);
    });
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ email: 'zoe@example.com', name: { first: 'Zoë' } });
  });
});

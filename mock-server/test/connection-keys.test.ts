// The Node server remembers, per connection, the key it presented last (adapters/node-request.ts): keys that differ
// in one character, a revoked key and a key presented in the other variant's header, all on one keep-alive
// connection, are each told apart exactly as on separate connections.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../src/adapters/node.js';
import { FROZEN_AT, newKey } from './support/keys.js';

let server: RunningMockServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** The local port of each answer's connection: one port means one connection. */
const ports = new Set<number>();

beforeAll(async () => {
  server = await startMockServer({ port: 0, frozenClock: FROZEN_AT, dashboard: false });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path: `/v1${path}`,
        agent,
        headers: text === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      },
      (response) => {
        ports.add(response.socket.localPort as number);
        let data = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (data += chunk));
        response.on('end', () => resolve({ status: response.statusCode as number, body: JSON.parse(data) }));
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

describe('keys on one keep-alive connection', () => {
  it('tells apart keys that differ in their last character, a revoked key and the other header', async () => {
    const first = newKey();
    const second = `${first.slice(0, -1)}${first.endsWith('a') ? 'b' : 'a'}`;
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

    const customer = await call('POST', '/customers', bearer(first), { email: 'ada@example.com' });
    expect(customer.status).toBe(201);
    expect((await call('GET', `/customers/${customer.body.id}`, bearer(second))).status).toBe(404);
    expect((await call('GET', '/customers?limit=10', bearer(second))).body.data).toEqual([]);
    expect((await call('GET', `/customers/${customer.body.id}`, bearer(first))).status).toBe(200);

    const created = await call('POST', '/api-keys', bearer(first), { name: 'short-lived' });
    expect(created.status).toBe(201);
    const extra: string = created.body.key;
    expect((await call('GET', `/customers/${customer.body.id}`, bearer(extra))).status).toBe(200);
    expect((await call('DELETE', `/api-keys/${created.body.id}`, bearer(first))).status).toBe(200);
    // Presented again right after its revocation, on the connection that presented it last.
    expect((await call('GET', `/customers/${customer.body.id}`, bearer(extra))).status).toBe(401);
    expect((await call('GET', `/customers/${customer.body.id}`, bearer(extra))).status).toBe(401);

    // The same key in the user variant's header: the same organization, seen through the other variant.
    const asUser = await call('GET', `/users/${customer.body.id}`, { 'Api-Key': first });
    expect(asUser.status).toBe(200);
    expect(asUser.body.id).toBe(customer.body.id);
    expect(ports.size).toBe(1);
  });
});

import { Agent, request } from 'node:http';
import { Cardrail } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { freshDatabase } from './support/databases.js';

describe('smoke', () => {
  let url: string;
  const servers: RunningMockServer[] = [];
  beforeAll(async () => {
    url = await freshDatabase('smoke');
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('keeps a write across a restart and shows it through a second instance', async () => {
    const a = await startMockServer({ port: 0, state: url, dashboard: false });
    servers.push(a);
    const b = await startMockServer({ port: 0, state: url, dashboard: false });
    servers.push(b);
    const key = 'sk_test_smoke0000001';
    const ca = new Cardrail({ apiKey: key, baseUrl: a.url, maxRetries: 0 });
    const cb = new Cardrail({ apiKey: key, baseUrl: b.url, maxRetries: 0 });
    const customer = await ca.customers.create({ email: 'ada@example.com' });
    expect((await cb.customers.retrieve(customer.id)).email).toBe('ada@example.com');
    const second = await cb.customers.create({ email: 'grace@example.com' });
    expect((await ca.customers.list()).data.map((c) => c.id).sort()).toEqual([customer.id, second.id].sort());
  });

  it('serves many requests on one keep-alive connection without piling up listeners on it', async () => {
    const server = await startMockServer({ port: 0, state: url, dashboard: false });
    servers.push(server);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 40; i++) {
        const status = await new Promise<number | undefined>((resolve, reject) => {
          // A write: its body is read before the organization's lock is taken.
          const outgoing = request(`${server.url}/customers`, {
            method: 'POST',
            agent,
            headers: { Authorization: 'Bearer sk_test_smokekeepalive01', 'Content-Type': 'application/json' },
          });
          outgoing.on('socket', (socket) => sockets.add(socket));
          outgoing.on('response', (response) => response.resume().on('end', () => resolve(response.statusCode)));
          outgoing.on('error', reject);
          outgoing.end(JSON.stringify({ email: `k${i}@example.com` }));
        });
        expect(status).toBe(201);
      }
    } finally {
      agent.destroy();
      process.off('warning', onWarning);
    }
    expect(sockets.size).toBe(1);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});

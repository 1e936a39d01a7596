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
});

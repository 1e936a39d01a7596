import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../src/index.js';
import { countIndexVisits } from './support/index-visits.js';
import { FROZEN_AT, newKey } from './support/keys.js';

/** One organization with `history` prior authorizations on one card (each delivered to a webhook), then one of each request. */
async function visitsPerRequest(history: number): Promise<Record<string, number>> {
  const mock = createMockServer({ frozenClock: FROZEN_AT, fetch: async () => new Response(null, { status: 204 }) });
  const key = newKey();
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await mock.handle(
      new Request(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const answer = (await response.json()) as Record<string, any>;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const webhook = await call('POST', '/webhooks', { url: 'https://hooks.example.test/cardrail', events: ['*'] });
  // Detectors report without acting, so the history never freezes the card and every request takes the same path.
  await call('PATCH', '/settings/risk', { preset: 'strict', dryRun: true });
  const customer = await call('POST', '/customers', { email: 'ada@example.com' });
  await call('POST', '/simulate/deposits', { customerId: customer.id, amount: 1_000_000_000 });
  const agent = await call('POST', '/agents', { customerId: customer.id, name: 'Buyer' });
  const card = await call('POST', '/cards', { customerId: customer.id, agentId: agent.id });
  for (let i = 0; i < history; i++) {
    await call('POST', '/simulate/authorize', {
      cardId: card.id,
      amount: 100 + i,
      merchant: { name: `Shop ${i % 50}`, mcc: '5734' },
    });
    if (i % 100 === 99) await call('POST', '/simulate/clock/advance', { seconds: 600 });
  }
  await call('POST', '/simulate/clock/advance', { seconds: 3600 });
  await mock.idle();

  const meter = countIndexVisits();
  const visits: Record<string, number> = {};
  const measure = async (name: string, method: string, path: string, body?: unknown) => {
    meter.take();
    const answer = await call(method, path, body);
    visits[name] = meter.take();
    return answer;
  };
  const merchant = { name: 'OpenAI', mcc: '5734' };
  await measure('evaluate', 'POST', '/spend/evaluate', { cardId: card.id, amount: 2500, merchant });
  await measure('credentials', 'POST', `/cards/${card.id}/credentials`, {});
  const authorized = await measure('authorize', 'POST', '/simulate/authorize', {
    cardId: card.id,
    amount: 2500,
    currency: 'usd',
    merchant,
  });
  await measure('settle', 'POST', `/simulate/transactions/${authorized.id}/settle`, {});
  await measure('get transaction', 'GET', `/transactions/${authorized.id}`);
  await measure('list transactions of the card', 'GET', `/transactions?cardId=${card.id}&limit=10`);
  await measure('get card', 'GET', `/cards/${card.id}`);
  await measure('card policy', 'GET', `/cards/${card.id}/policy`);
  await measure('list cards of the agent', 'GET', `/cards?agentId=${agent.id}`);
  await measure('create intent', 'POST', '/intents', {
    cardId: card.id,
    summary: 'More GPUs',
    expectedAmount: 5000,
    currency: 'usd',
  });
  await measure('agent policy change', 'PATCH', `/agents/${agent.id}`, { policy: { ttlDays: 30 } });
  await measure('freeze card', 'POST', `/cards/${card.id}/freeze`, {});
  await measure('list events', 'GET', '/events?limit=10');
  await measure('list deliveries', 'GET', `/webhooks/${webhook.id}/deliveries?limit=10`);
  await measure('balances', 'GET', `/customers/${customer.id}/balances`);
  await measure('delete webhook', 'DELETE', `/webhooks/${webhook.id}`);
  vi.restoreAllMocks();
  mock.reset();
  return visits;
}

describe('request cost', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('visits the same number of stored objects per request after 20 or 1,000 prior authorizations', async () => {
    const small = await visitsPerRequest(20);
    const large = await visitsPerRequest(1_000);
    expect(Object.keys(large)).toHaveLength(16);
    expect(large).toEqual(small);
  }, 60_000);
});

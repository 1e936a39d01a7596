import { describe, expect, it, vi } from 'vitest';
import { cards, freezeCard } from '../src/domain/cards.js';
import { ApiError, createMockServer, defineCollection, type MockExtension } from '../src/index.js';
import { documents as bundledDocuments } from '@cardrail/spec/documents';
import { FROZEN_AT, newKey } from './support/keys.js';

interface NoteRecord {
  id: string;
  cardId: string;
  text: string;
}
const notes = defineCollection<NoteRecord>('testNotes', { filters: { cardId: (note) => note.cardId } });

/** A stand-in for the engine: answers two engine operations through the registry. */
const engineStandIn: MockExtension = {
  name: 'stand-in',
  handlers: {
    // Reads the platform's records, changes them through src/domain, keeps its own collection.
    simulateAuthorization: (ctx) => {
      const card = cards.of(ctx.tenant).get(ctx.body.cardId ?? '');
      if (!card) throw new ApiError(404, 'not_found', 'no card');
      notes.of(ctx.tenant).insert({ id: `note_${notes.of(ctx.tenant).size}`, cardId: card.id, text: 'authorized' });
      freezeCard(ctx.tenant, card, 'spending_limit_exceeded', 'system');
      throw new ApiError(400, 'invalid_state', 'frozen for the test', { notes: notes.of(ctx.tenant).size });
    },
    simulateKyc: () => {
      throw new Error('a bug in a handler');
    },
  },
};

describe('the handler registry (the engine seam)', () => {
  const mock = createMockServer({ frozenClock: FROZEN_AT, extensions: [engineStandIn], validateResponses: true });
  const call = async (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await mock.handle(
      new Request(`http://mock/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  it('routes a registered engine operation to its handler, after validation', async () => {
    const key = newKey();
    const customer = (await call(key, 'POST', '/customers', { email: 'ada@example.com' })).body;
    const card = (await call(key, 'POST', '/cards', { customerId: customer.id })).body;
    const invalid = await call(key, 'POST', '/simulate/authorize', { cardId: card.id, amount: -5, merchant: { name: 'X' } });
    expect(invalid.body.error.details.field).toBe('/body/amount');
    const answer = await call(key, 'POST', '/simulate/authorize', { cardId: card.id, amount: 500, merchant: { name: 'X' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_state', message: 'frozen for the test', details: { notes: 1 } } });
    expect((await call(key, 'GET', `/cards/${card.id}`)).body.status).toBe('frozen');
    expect(mock.events.list({ apiKey: key, type: 'card.frozen' })[0]?.data).toMatchObject({
      reason: 'spending_limit_exceeded',
      frozenBy: 'system',
    });
  });

  it('answers 500 internal_error (object form) when a handler fails, logs the error, and frees its idempotency key', async () => {
    // The failure is logged for the developer (and captured here rather than printed).
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const key = newKey();
      const body = { customerId: 'cus_x', status: 'approved' };
      const failed = await call(key, 'POST', '/simulate/kyc', body, { 'Idempotency-Key': 'kyc-1' });
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ error: { code: 'internal_error', message: 'An unexpected error occurred.', details: null } });
      // A failure is not replayed: the retry runs again.
      const retried = await call(key, 'POST', '/simulate/kyc', body, { 'Idempotency-Key': 'kyc-1' });
      expect(retried.status).toBe(500);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(logged.mock.calls).toEqual([
        ['[cardrail-mock] handler failed', new Error('a bug in a handler')],
        ['[cardrail-mock] handler failed', new Error('a bug in a handler')],
      ]);
    } finally {
      logged.mockRestore();
    }
  });

  it('serves a spec operation nobody registered as 501 not_implemented', async () => {
    const documents = structuredClone(bundledDocuments);
    documents.customer.paths['/simulate/nothing'] = {
      get: { operationId: 'simulateNothing', responses: { '200': { description: 'Success.' } } },
    };
    const extended = createMockServer({ documents });
    const response = await extended.handle(
      new Request('http://mock/v1/simulate/nothing', { headers: { Authorization: `Bearer ${newKey()}` } }),
    );
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({
      error: { code: 'not_implemented', details: { operationId: 'simulateNothing' } },
    });
  });
});

describe('the policy-change hook', () => {
  it('tells an extension whose policy changed: a card, an agent (policy or limits) or a customer, and nothing else', async () => {
    const changes: string[] = [];
    const observer: MockExtension = {
      name: 'policy-observer',
      onPolicyChanged: (change) => changes.push(`${change.owner} ${change.id}`),
    };
    const mock = createMockServer({ frozenClock: FROZEN_AT, extensions: [observer] });
    const key = newKey();
    const call = async (method: string, path: string, body: unknown, variant: 'customer' | 'user' = 'customer') => {
      const auth: Record<string, string> = variant === 'user' ? { 'Api-Key': key } : { Authorization: `Bearer ${key}` };
      const response = await mock.handle(
        new Request(`http://mock/v1${path}`, {
          method,
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      return (await response.json()) as { id: string };
    };
    const customer = await call('POST', '/customers', { email: 'ada@example.com' });
    const agent = await call('POST', '/agents', { customerId: customer.id, name: 'Buyer' });
    const card = await call('POST', '/cards', { customerId: customer.id, agentId: agent.id });
    await call('PATCH', `/customers/${customer.id}`, { phone: '+14155550100' });
    await call('PATCH', `/agents/${agent.id}`, { name: 'Renamed' });
    await call('PATCH', `/cards/${card.id}`, { status: 'frozen' });
    expect(changes).toEqual([]);
    await call('PATCH', `/customers/${customer.id}`, { policy: { cooldownMinutes: 5 } });
    await call('PATCH', `/customers/${customer.id}`, { policy: { cooldownMinutes: 5 } });
    await call('PATCH', `/agents/${agent.id}`, { policy: { ttlDays: 3 } });
    await call('PATCH', `/agents/${agent.id}`, { limits: { amount: 1000, currency: 'usd', interval: 'daily' } });
    await call('PATCH', `/cards/${card.id}`, { policy: { ttlMinutes: 10 } });
    await call('PATCH', `/cards/${card.id}`, { limits: { perDay: 500 } }, 'user');
    expect(changes).toEqual([
      `customer ${customer.id}`,
      `agent ${agent.id}`,
      `agent ${agent.id}`,
      `card ${card.id}`,
      `card ${card.id}`,
    ]);
  });
});

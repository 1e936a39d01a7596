import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { documents as bundledDocuments } from '@cardrail/spec/documents';
import { extractOperations } from '../src/spec/operations.js';
import { Scenario } from './engine/support/http-scenario.js';
import { FROZEN_AT, newKey } from './support/keys.js';

const PLATFORM_PREFIXES = ['/customers', '/users', '/agents', '/cards', '/webhooks', '/events', '/api-keys', '/simulate/clock'];

describe("a client's mistakes are never a server error", () => {
  const documents = bundledDocuments;
  const operations = (['customer', 'user'] as const).flatMap((variant) =>
    extractOperations(documents[variant], variant).filter((op) => PLATFORM_PREFIXES.some((prefix) => op.path.startsWith(prefix))),
  );

  it('answers arbitrary bodies, queries and ids on every platform operation with a documented 4xx or a success', async () => {
    const mock = createMockServer({ frozenClock: FROZEN_AT, validateResponses: true });
    const key = newKey();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.oneof(fc.jsonValue(), fc.object(), fc.constant(undefined)),
        fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'customerId', 'type', 'x'), fc.string({ maxLength: 12 })),
        fc.string({ minLength: 1, maxLength: 16 }),
        async (operation, body, query, id) => {
          const path = operation.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
          const search = new URLSearchParams(query).toString();
          const response = await mock.handle(
            new Request(`http://mock/v1${path}${search ? `?${search}` : ''}`, {
              method: operation.method,
              headers: {
                ...(operation.variant === 'customer' ? { Authorization: `Bearer ${key}` } : { 'Api-Key': key }),
                'Content-Type': 'application/json',
              },
              body:
                body === undefined || operation.method === 'GET' || operation.method === 'DELETE'
                  ? undefined
                  : JSON.stringify(body),
            }),
          );
          expect(response.status, `${operation.method} ${path}?${search} ${JSON.stringify(body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers every operation, given ids of real objects, with a 4xx that changes nothing (no event) or a success', async () => {
    const s = new Scenario();
    const { card, agent, customer } = await s.setup({ balance: 100_000 });
    const intent = await s.ok('POST', '/intents', { cardId: card.id, summary: 'GPU hours', expectedAmount: 100 });
    const pending = await s.authorize(card.id, 100);
    const settled = await s.authorize(card.id, 200, { name: 'AWS' });
    await s.ok('POST', `/simulate/transactions/${settled.id}/settle`, {});
    const dispute = await s.ok('POST', `/simulate/transactions/${settled.id}/dispute`, {});
    const withdrawal = await s.ok('POST', `/customers/${customer.id}/withdrawals`, {
      amount: 5,
      chainId: 8453,
      recipientAddress: `0x${'a'.repeat(40)}`,
    });
    const ids: Record<string, string> = {
      cardId: card.id,
      agentId: agent.id,
      customerId: customer.id,
      userId: customer.id,
      intentId: intent.id,
      transactionId: pending.id,
      disputeId: dispute.id,
      withdrawalId: withdrawal.id,
    };
    const all = (['customer', 'user'] as const).flatMap((variant) => extractOperations(documents[variant], variant));
    const value = fc.oneof(
      fc.constantFrom(...Object.values(ids), settled.id, 'OpenAI', 'won', 'lost', 'approved', 'freeze', 'single', 'strict'),
      fc.integer({ min: -10, max: 200_000 }),
      fc.string({ maxLength: 6 }),
      fc.boolean(),
      fc.constant(null),
    );
    const fields = [
      'cardId',
      'amount',
      'customerId',
      'userId',
      'agentId',
      'merchant',
      'outcome',
      'status',
      'preset',
      'seconds',
      'summary',
      'expectedAmount',
      'policy',
      'limits',
      'currency',
      'chainId',
      'recipientAddress',
      'tolerance',
      'intentId',
      'reason',
    ];
    const nested = fc.dictionary(
      fc.constantFrom('name', 'mcc', 'perAuth', 'perDay', 'percent', 'amount', 'ttlMinutes', 'enabled'),
      value,
    );
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom(...fields), fc.oneof(value, nested)),
      fc.jsonValue(),
      fc.constant(undefined),
    );
    const eventCount = () => s.mock.events.list({ apiKey: s.key }).length;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...all), body, async (operation, sent) => {
        const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? 'unknown');
        const before = eventCount();
        const withBody = operation.method !== 'GET' && operation.method !== 'DELETE' ? sent : undefined;
        const answer = await s.call(operation.method, path, withBody, operation.variant);
        const label = `${operation.method} ${path} ${JSON.stringify(withBody)} -> ${JSON.stringify(answer.body)}`;
        expect(answer.status, label).toBeLessThan(500);
        if (answer.status >= 400) expect(eventCount(), label).toBe(before);
      }),
      { numRuns: 600 },
    );
  });
});

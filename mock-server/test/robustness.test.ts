import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { loadSpecDocuments } from '../src/spec/documents.js';
import { extractOperations } from '../src/spec/operations.js';
import { FROZEN_AT, newKey } from './support/keys.js';

const PLATFORM_PREFIXES = ['/customers', '/users', '/agents', '/cards', '/webhooks', '/events', '/api-keys', '/simulate/clock'];

describe('a client\'s mistakes are never a server error', () => {
  const documents = loadSpecDocuments();
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
              body: body === undefined || operation.method === 'GET' || operation.method === 'DELETE' ? undefined : JSON.stringify(body),
            }),
          );
          expect(response.status, `${operation.method} ${path}?${search} ${JSON.stringify(body)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });
});

// No answer can fail after state changed (docs/errors.md#request-size-and-depth): hostile bodies (deep nesting,
// oversized and odd strings, extreme numbers, prototype keys, broken JSON, another media type) sent to every
// operation of both variants, with ids of real objects, get either a documented success (and the answer renders)
// or a documented refusal that changed nothing at all: the whole state is compared before and after.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../src/index.js';
import type { MockSnapshot } from '../src/core/state/model.js';
import { loadBundledDocuments } from '../src/spec/documents.js';
import { extractOperations, responseSchemaPointers } from '../src/spec/operations.js';
import { fakeReceivers, runTour, TOUR_KEY, tourOptions } from './support/state-tour.js';

const LIMIT = 16 * 1024;

/** The state without the id generator's position: a refused request may draw an id it then does not use. */
function state(mock: MockServer): string {
  const snapshot: Partial<MockSnapshot> = mock.snapshot();
  delete snapshot.random;
  return JSON.stringify(snapshot);
}

const deepText = (depth: number, open: '[' | '{') =>
  open === '[' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const FIELDS = [
  'email',
  'customerId',
  'userId',
  'agentId',
  'cardId',
  'name',
  'amount',
  'currency',
  'merchant',
  'metadata',
  'policy',
  'limits',
  'url',
  'events',
  'seconds',
  'summary',
  'expectedAmount',
  'status',
  'outcome',
  'preset',
  'mode',
  'reason',
  'chainId',
  'recipientAddress',
];

/** Values chosen to break parsing, storing, rendering or arithmetic. */
const hostileValue = fc.oneof(
  fc.constantFrom(1e308, -1e308, 5e-324, -0, 2 ** 53 + 1, -1, 0, 4_294_967_296, 1.5),
  fc.constantFrom(
    '\ud800',
    '\udfff',
    '\u0000',
    '\u202e',
    'ß'.repeat(300),
    '',
    ' ',
    '__proto__',
    'constructor',
    'javascript:alert(1)',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: 1, max: 3 }).map((kb) => 'x'.repeat(kb * 7_000)),
  fc.constantFrom(null, true, false, [], {}),
  fc.constantFrom('http://169.254.169.254/', 'HTTP://127.0.0.1:9/x', 'https://u:p@example.com/', 'http://[::]/'),
);

/** Bodies as raw text: some are not JSON at all. */
function hostileBody(ids: string[]): fc.Arbitrary<{ text: string; contentType: string }> {
  const json = (value: unknown) => ({ text: JSON.stringify(value), contentType: 'application/json' });
  const key = fc.oneof(
    fc.constantFrom(...FIELDS),
    fc.constantFrom('__proto__', 'constructor', 'toJSON', 'prototype', 'hasOwnProperty'),
  );
  const value = fc.oneof(hostileValue, fc.constantFrom(...ids));
  const nestedValue = fc
    .integer({ min: 1, max: 80 })
    .chain((depth) => fc.constantFrom('[', '{').map((open) => JSON.parse(deepText(depth, open as '[' | '{')) as unknown));
  const object = fc.dictionary(key, fc.oneof(value, nestedValue, fc.dictionary(key, value, { maxKeys: 4 })), { maxKeys: 8 });
  return fc.oneof(
    object.map(json),
    // Over the nesting limit, written as text (the test process need not build it).
    fc.tuple(fc.integer({ min: 60, max: 5_000 }), fc.constantFrom('[', '{')).map(([depth, open]) => ({
      text: `{"email":"a@example.com","metadata":{"x":${deepText(depth, open as '[' | '{')}}}`,
      contentType: 'application/json',
    })),
    // Around the size limit.
    fc
      .integer({ min: LIMIT - 64, max: LIMIT + 64 })
      .map((size) => json({ email: 'a@example.com', metadata: { pad: 'y'.repeat(size - 45) } })),
    fc
      .constantFrom('{', '{"a":', '[1,]', 'nul', '"\\ud800"', '{"a":1}{"b":2}', '\u0000')
      .map((text) => ({ text, contentType: 'application/json' })),
    object.map((value) => ({ text: JSON.stringify(value), contentType: 'text/plain' })),
    fc.jsonValue({ maxDepth: 4 }).map(json),
  );
}

describe('hostile bodies', () => {
  it('get a documented success or a documented refusal that changed nothing, on every operation of both variants', async () => {
    const mock = createMockServer({ ...tourOptions(fakeReceivers().fetch), maxBodyBytes: LIMIT });
    const found = await runTour(mock);
    const ids = Object.values(found) as string[];
    const documents = await loadBundledDocuments();
    const operations = (['customer', 'user'] as const).flatMap((variant) => extractOperations(documents[variant], variant));
    const documented = { customer: responseSchemaPointers(documents.customer), user: responseSchemaPointers(documents.user) };
    const byParam: Record<string, string> = {
      customerId: found.customerId,
      userId: found.customerId,
      agentId: found.agentId,
      cardId: found.cardId,
      intentId: found.openIntentId,
      transactionId: found.settledId,
      disputeId: found.disputeId,
      withdrawalId: found.withdrawalId,
      webhookId: found.okWebhookId,
      keyId: found.revokedKeyId,
    };
    let successes = 0;
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), hostileBody(ids), fc.boolean(), async (operation, body, realIds) => {
        const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          realIds ? (byParam[name] ?? 'unknown') : 'x%00y',
        );
        const before = state(mock);
        const response = await mock.handle(
          new Request(`http://127.0.0.1:4010/v1${path}`, {
            method: operation.method,
            headers: {
              ...(operation.variant === 'customer' ? { Authorization: `Bearer ${TOUR_KEY}` } : { 'Api-Key': TOUR_KEY }),
              'Content-Type': body.contentType,
            },
            body: operation.method === 'GET' || operation.method === 'DELETE' ? undefined : body.text,
          }),
        );
        const text = await response.text();
        const label = `${operation.variant} ${operation.method} ${path} ${body.text.slice(0, 200)} -> ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, label).toBeLessThan(500);
        expect(
          documented[operation.variant].get(operation.operationId)?.has(response.status) || response.status === 413,
          label,
        ).toBe(true);
        // Whatever the answer, it is JSON that renders back.
        expect(() => JSON.parse(text), label).not.toThrow();
        await mock.idle();
        if (response.status >= 200 && response.status < 300) successes++;
        else {
          refusals++;
          expect(state(mock), `${label}: a refusal changed the state`).toBe(before);
        }
      }),
      { numRuns: 350 },
    );
    // Both halves were exercised.
    expect(successes).toBeGreaterThan(0);
    expect(refusals).toBeGreaterThan(successes);
  });
});

// The MSW set-up the READMEs show for msw 2, in a vitest file of a user's project on Node 20, with the SDK against the
// in-process mock. msw 2 names the option `onUnhandledRequest` (msw 3: `onUnhandledFrame`, consumer/msw.test.ts).
import { Cardrail } from '@cardrail/sdk';
import { createHandlers } from '@cardrail/mock-server/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const mock = createHandlers({ frozenClock: '2026-11-21T12:00:00Z' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

it('answers the SDK at its default base URL, on the frozen clock', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_consumer01' });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.id).toMatch(/^cus_/);
  expect(customer.createdAt).toBe('2026-11-21T12:00:00.000Z');
});

it('starts from nothing after reset()', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_consumer01' });
  expect((await cardrail.customers.list()).data).toEqual([]);
});

it('fails a request no handler answers instead of sending it to the network', async () => {
  await expect(fetch('https://unmocked.example.test/anything')).rejects.toThrow();
});

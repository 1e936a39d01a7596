// The MSW set-up the READMEs show, in a vitest file of a user's project with msw 3 (npm's latest; Node 22.12 or
// newer), with the SDK against the in-process mock. msw 3 names the option `onUnhandledFrame`: msw 2's
// `onUnhandledRequest` is ignored by msw 3, which then lets an unhandled request through (consumer-msw2/msw.test.ts).
import { Cardrail } from '@cardrail/sdk';
import { createHandlers } from '@cardrail/mock-server/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const mock = createHandlers({ frozenClock: '2026-11-21T12:00:00Z' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
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

// The mock in-process through MSW, as an app's test suite uses it: the code under test makes its own requests to the
// API (here the SDK at its default base URL, production), and MSW answers them from the mock. An unhandled request
// fails the test instead of reaching the network. npm test runs this file with msw 3 and, on Node 20, with msw 2.
import { createHandlers } from '@cardrail/mock-server/msw';
import { Cardrail, NotFoundError } from '@cardrail/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { unhandled } from '../../../scripts/vitest-msw.mjs';

const mock = createHandlers();
const server = setupServer(...mock.handlers);
// In a project with one msw: `server.listen({ onUnhandledFrame: 'error' })` (msw 3) or
// `server.listen({ onUnhandledRequest: 'error' })` (msw 2). This repository runs the file with both.
beforeAll(() => server.listen(unhandled('error')));
afterEach(() => mock.reset());
afterAll(() => server.close());

test('the SDK at its default (production) base URL is answered by the mock', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_examplemsw01' });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.id).toMatch(/^cus_/);
  await expect(cardrail.customers.retrieve('cus_missing')).rejects.toBeInstanceOf(NotFoundError);
});

test('a request no handler answers fails instead of leaving for the network', async () => {
  await expect(fetch('https://unmocked.example.test/anything')).rejects.toThrow();
});

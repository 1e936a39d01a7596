import { Cardrail } from '@cardrail/sdk';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mswMajor, unhandled } from '../../scripts/vitest-msw.mjs';
import { createHandlers } from '../src/adapters/msw.js';
import { assertMswCanServe } from '../src/adapters/msw-support.js';

// The three lines of the README, as a suite would write them.
const mock = createHandlers({ frozenClock: '2026-11-21T12:00:00Z' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen(unhandled('error')));
afterEach(() => mock.reset());
afterAll(() => server.close());

it('answers the SDK at its default production base URL without any network', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_readme0001', maxRetries: 0 });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.createdAt).toBe('2026-11-21T12:00:00.000Z');
  expect(mock.events.list({ apiKey: 'sk_test_readme0001' }).map((event) => event.type)).toEqual([
    'user.created',
    'verification.initiated',
  ]);
});

it('starts from nothing after reset()', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_readme0001', baseUrl: 'http://localhost:4010/v1', maxRetries: 0 });
  expect((await cardrail.customers.list()).data).toEqual([]);
});

it('answers only the base URLs it was given', async () => {
  const custom = createHandlers({ baseUrls: ['https://cardrail.internal.example/proxy/v1'] });
  server.use(...custom.handlers);
  const response = await fetch('https://cardrail.internal.example/proxy/v1/customers', {
    headers: { Authorization: 'Bearer sk_test_readme0002' },
  });
  expect(response.status).toBe(200);
  expect(custom.events.list()).toEqual([]);
  await custom.handle(
    new Request('http://x/v1/customers', {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_readme0002', 'Content-Type': 'application/json' },
      body: '{"email":"a@b.co"}',
    }),
  );
  expect(custom.events.list()).toHaveLength(2);
  expect(mock.events.list()).toEqual([]);
});

describe('an msw that cannot serve the handlers', () => {
  it('msw 1 (no `http`) is refused at once, with both supported majors and what to install', () => {
    expect(() => assertMswCanServe(undefined)).toThrow(
      /needs msw 2 \(2\.15 or newer\) or msw 3.*npm install --save-dev msw@\^3.*npm install --save-dev msw@\^2\.15\.0/s,
    );
  });

  it(`msw ${mswMajor()} on Node.js 20 is ${mswMajor() === 3 ? 'refused, naming msw 2 to install' : 'accepted'}`, () => {
    const check = () => assertMswCanServe(http, '20.20.2');
    if (mswMajor() === 3) {
      expect(check).toThrow(/msw 3 cannot intercept requests on Node\.js 20\.20\.2 .*msw@\^2\.15\.0/s);
    } else {
      expect(check).not.toThrow();
    }
  });

  it('is accepted on this runtime, and on Node.js 22.12', () => {
    expect(() => assertMswCanServe(http)).not.toThrow();
    expect(() => assertMswCanServe(http, '22.12.0')).not.toThrow();
  });
});

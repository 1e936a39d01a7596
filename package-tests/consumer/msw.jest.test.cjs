// A CommonJS jest file using msw 3 and the mock's handlers, as a user writes it. jest 30 loads msw 3 (ES modules
// only) from CommonJS on Node.js 22.12 and newer when started with NODE_OPTIONS=--experimental-vm-modules; without
// the flag jest's module runtime refuses it.
const { setupServer } = require('msw/node');
const { createHandlers } = require('@cardrail/mock-server/msw');
const { Cardrail } = require('@cardrail/sdk');

const mock = createHandlers({ frozenClock: '2026-11-21T12:00:00Z' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

test('creates a customer on the frozen clock, through MSW', async () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_jestmsw3001', baseUrl: 'http://127.0.0.1:4010/v1' });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.createdAt).toBe('2026-11-21T12:00:00.000Z');
});

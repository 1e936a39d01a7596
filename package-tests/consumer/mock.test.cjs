// A CommonJS jest file of a user's project: the mock in-process (as the SDK's fetch) and as a server on a free port
// that delivers a signed webhook to a local receiver. (MSW 2 itself cannot be required by jest before Node 24.9:
// some of its dependencies are ES modules only.)
const { createServer } = require('node:http');
const { createMockServer } = require('@cardrail/mock-server');
const { startMockServer } = require('@cardrail/mock-server/node');
const { Cardrail, NotFoundError } = require('@cardrail/sdk');
const { constructEvent } = require('@cardrail/sdk/webhooks');

test('the mock in-process, through the SDK', async () => {
  const mock = createMockServer();
  const cardrail = new Cardrail({ apiKey: 'sk_test_jestcjs001', fetch: (request) => mock.handle(request) });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.id).toMatch(/^cus_/);
  await expect(cardrail.customers.retrieve('cus_doesnotexist')).rejects.toBeInstanceOf(NotFoundError);
});

test('response checks in jest: the spec documents (shipped compressed) load and the answers conform', async () => {
  const mock = createMockServer({ validateResponses: true });
  const cardrail = new Cardrail({ apiKey: 'sk_test_jestcjs003', fetch: (request) => mock.handle(request) });
  const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
  expect(customer.id).toMatch(/^cus_/);
  await expect(cardrail.customers.retrieve('cus_doesnotexist')).rejects.toBeInstanceOf(NotFoundError);
});

test('the mock as a server, delivering a signed webhook that verifies', async () => {
  const running = await startMockServer({ port: 0 });
  let deliver;
  const delivered = new Promise((resolve) => (deliver = resolve));
  const receiver = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    response.writeHead(204).end();
    deliver({ payload: Buffer.concat(chunks), header: request.headers['cardrail-signature'] });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const cardrail = new Cardrail({ apiKey: 'sk_test_jestcjs002', baseUrl: running.url });
    const url = `http://127.0.0.1:${receiver.address().port}/hooks`;
    const hook = await cardrail.webhooks.create({ url, events: ['agent.created'] });
    const customer = await cardrail.customers.create({ type: 'consumer', email: 'ada@example.com' });
    const agent = await cardrail.agents.create({ customerId: customer.id, name: 'Buyer' });
    const event = await constructEvent({ ...(await delivered), secret: hook.secret });
    expect(event.type).toBe('agent.created');
    expect(event.data.agentId).toBe(agent.id);
  } finally {
    receiver.close();
    await running.close();
  }
});

// Writes a --state directory holding `objects` API objects, through the built mock in this process (mock.handle,
// no HTTP): `node state-generator.mjs <dir> <objects>`. Organizations of 200 objects each: 10 customers (funded),
// 10 agents, 80 cards and 100 approved authorizations (risk rules in dry run), with their events and balances.
// Prints one line of JSON: { objects, organizations, key, lastKey } (the first and the last organization's API keys).
import { startMockServer } from '../../../mock-server/dist/node.mjs';

const [dir, count] = [process.argv[2], Number(process.argv[3])];
const running = await startMockServer({ port: 0, state: dir, frozenClock: '2026-11-23T12:00:00.000Z' });
const { mock } = running;
let objects = 0;
let organizations = 0;
let firstKey;
let lastKey;
async function call(key, method, path, body) {
  const response = await mock.handle(
    new Request(`http://127.0.0.1/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  objects += method === 'POST' && !path.startsWith('/simulate/deposits') ? 1 : 0;
  // Let the store's background work run between requests, as it does between a server's requests.
  if (objects % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
  return JSON.parse(text);
}
while (objects < count) {
  const key = `sk_test_stategen${String(organizations).padStart(6, '0')}`;
  firstKey ??= key;
  lastKey = key;
  organizations++;
  await call(key, 'PATCH', '/settings/risk', { dryRun: true });
  const customers = [];
  const agents = [];
  const cards = [];
  for (let i = 0; i < 10; i++) {
    const customer = await call(key, 'POST', '/customers', { email: `c${i}@org${organizations}.example.com` });
    await call(key, 'POST', '/simulate/deposits', { customerId: customer.id, amount: 1_000_000_000 });
    customers.push(customer.id);
    agents.push((await call(key, 'POST', '/agents', { customerId: customer.id, name: `Buyer ${i}` })).id);
  }
  for (let i = 0; i < 80; i++) {
    cards.push((await call(key, 'POST', '/cards', { customerId: customers[i % 10], agentId: agents[i % 10] })).id);
  }
  for (let i = 0; i < 100 && objects < count; i++) {
    await call(key, 'POST', '/simulate/authorize', {
      cardId: cards[i % cards.length],
      amount: 100 + (i % 50),
      currency: 'usd',
      merchant: { name: `Shop ${i % 40}`, mcc: '5734' },
    });
  }
}
await running.close();
process.stdout.write(`${JSON.stringify({ objects, organizations, key: firstKey, lastKey })}\n`);

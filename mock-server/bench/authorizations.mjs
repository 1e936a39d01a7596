// Authorizations per second through the in-process core (`handle`), on a card with no history and on one with
// 10,000 prior transactions, plus the engine's counted operations per authorization. Needs `npm run build` first.
// It asserts nothing (throughput varies with the machine); test/engine/authorization-cost.test.ts is the check.
let createMockServer;
let engineState;
try {
  ({ createMockServer } = await import('../dist/index.js'));
  ({ engineState } = await import('../dist/engine/engine-state.js'));
} catch {
  console.error('mock-server bench: dist/ is missing; run `npm run build -w @cardrail/mock-server` first');
  process.exit(1);
}

const SAMPLE = 2000;
const mock = createMockServer({ frozenClock: '2026-11-23T12:00:00.000Z' });
const key = 'sk_test_authorizationbench';
const call = async (method, path, body) => {
  const response = await mock.handle(
    new Request(`http://127.0.0.1:4010/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
};

const customer = await call('POST', '/customers', { email: 'bench@example.com' });
await call('POST', '/simulate/deposits', { customerId: customer.id, amount: 100_000_000_000 });
const agent = await call('POST', '/agents', { customerId: customer.id, name: 'bench' });
// Every detector on, in dry run, so each authorization does the most work and none is declined.
await call('PATCH', '/settings/risk', { preset: 'strict', dryRun: true });
const meter = engineState(mock.tenantOf(key)).meter;

async function run(cardId, count, offset) {
  const started = performance.now();
  const before = meter.count;
  for (let i = 0; i < count; i++) {
    await call('POST', '/simulate/authorize', { cardId, amount: 100 + ((offset + i) % 5000), merchant: { name: `Merchant ${i % 300}` } });
  }
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: Math.round(count / seconds), operations: (meter.count - before) / count };
}

const fresh = await call('POST', '/cards', { customerId: customer.id, agentId: agent.id });
const empty = await run(fresh.id, SAMPLE, 0);
const busy = await call('POST', '/cards', { customerId: customer.id, agentId: agent.id });
await run(busy.id, 10_000, 0);
const loaded = await run(busy.id, SAMPLE, 10_000);
console.log(`POST /v1/simulate/authorize, no prior transactions: ${empty.perSecond} authorizations/s, ${empty.operations} engine operations each`);
console.log(`POST /v1/simulate/authorize, 10,000 prior transactions: ${loaded.perSecond} authorizations/s, ${loaded.operations} engine operations each`);

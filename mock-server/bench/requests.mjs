// Throughput of the Node transport for a list page and a create, with autocannon. Needs `npm run build` first.
// Prints requests per second and latency percentiles; it asserts nothing (numbers vary with the machine).
import autocannon from 'autocannon';

let startMockServer;
try {
  ({ startMockServer } = await import('../dist/adapters/node.js'));
} catch {
  console.error('mock-server bench: dist/ is missing; run `npm run build -w @cardrail/mock-server` first');
  process.exit(1);
}

const running = await startMockServer({ port: 0 });
const key = 'sk_test_benchmark01';
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
// A page of 50 out of 1000 objects: the list cost must not grow with the collection.
for (let i = 0; i < 1000; i++) {
  await fetch(`${running.url}/customers`, { method: 'POST', headers, body: JSON.stringify({ email: `u${i}@example.com` }) });
}

const scenarios = [
  { name: 'GET /v1/customers (page of 50 of 1000+)', method: 'GET', path: '/customers' },
  { name: 'POST /v1/customers', method: 'POST', path: '/customers', body: JSON.stringify({ email: 'bench@example.com' }) },
];
for (const scenario of scenarios) {
  const result = await autocannon({
    url: running.url + scenario.path,
    method: scenario.method,
    headers,
    body: scenario.body,
    connections: 20,
    duration: 5,
  });
  console.log(
    `${scenario.name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `${result.non2xx} non-2xx`,
  );
}
await running.close();

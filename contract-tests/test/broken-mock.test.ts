import { createMockServer } from '@cardrail/mock-server';
import { describe, expect, it } from 'vitest';
import { clientFor, newTestKey } from '../src/scenario/context.js';
import { ContractRecorder } from '../src/recorder.js';

/**
 * The harness must fail a mock that drifts from the spec. Here the mock is deliberately broken in transit: its
 * customer responses lose the required `email`. The same recorder that guards every suite must report it.
 */
describe('a mock that drops a required response field fails the contract', () => {
  it('the recorder reports a response_schema_conformance violation naming the field', async () => {
    const mock = createMockServer();
    const recorder = new ContractRecorder({
      suite: 'broken-mock',
      baseFetch: async (request) => {
        const response = await mock.handle(request);
        if (request.method !== 'GET' || !/\/customers\/[^/]+$/.test(new URL(request.url).pathname)) return response;
        const { email: _dropped, ...broken } = (await response.json()) as Record<string, unknown>;
        return new Response(JSON.stringify(broken), { status: response.status, headers: response.headers });
      },
    });
    const { client } = clientFor('customer', { apiKey: newTestKey(), baseUrl: 'http://mock.invalid/v1', fetch: recorder.fetch });
    if (!('customers' in client)) throw new Error('expected the customer client');
    const created = await client.customers.create({ type: 'consumer', email: 'ada@example.com' });
    await client.customers.retrieve(created.id);

    expect(recorder.violations).toEqual([
      expect.objectContaining({
        check: 'response_schema_conformance',
        operation: 'customer getCustomer',
        message: expect.stringContaining("must have required property 'email'"),
      }),
    ]);
    mock.reset();
  });
});

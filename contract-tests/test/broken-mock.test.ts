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

describe('a mock whose 429 headers are not the documented integers fails the contract', () => {
  it.each([
    ['empty', ''],
    ['hexadecimal', '0x10'],
    ['exponent', '1e1'],
  ])('the recorder reports a Retry-After that is %s', async (_name, retryAfter) => {
    const mock = createMockServer({ rateLimit: 1 });
    const recorder = new ContractRecorder({
      suite: 'broken-mock-headers',
      baseFetch: async (request) => {
        const response = await mock.handle(request);
        if (response.status !== 429) return response;
        const headers = new Headers(response.headers);
        headers.set('Retry-After', retryAfter);
        return new Response(await response.text(), { status: 429, headers });
      },
    });
    const { client } = clientFor('customer', { apiKey: newTestKey(), baseUrl: 'http://mock.invalid/v1', fetch: recorder.fetch });
    await client.agents.list({ limit: 1 });
    await client.agents.list({ limit: 1 }).catch(() => undefined);

    expect(recorder.exchanges.map((e) => e.status)).toEqual([200, 429]);
    expect(recorder.violations).toEqual([
      expect.objectContaining({
        check: 'response_headers_conformance',
        operation: 'customer listAgents',
        message: expect.stringContaining('Retry-After'),
      }),
    ]);
    mock.reset();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, writeDocumentFile, writeDocumentFor2020, type PrismProcess } from '../src/prism.js';
import { ContractRecorder } from '../src/recorder.js';
import { loadSpecs, type OpenApiDocument } from '../src/spec.js';
import { startStubUpstream } from '../src/stub-upstream.js';

/** A document whose only response schema uses a keyword draft-07 does not know. */
function documentWith2020OnlyKeyword(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'dialect probe', version: '1' },
    servers: [{ url: 'http://localhost/v1' }],
    paths: {
      '/probe': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: false },
                },
              },
            },
          },
        },
      },
    },
    webhooks: {},
    components: {},
  };
}

const VALID_CUSTOMER = {
  id: 'cus_3kT9xQ2mPz',
  type: 'consumer',
  status: 'active',
  email: 'ada@example.com',
  phone: null,
  name: { first: 'Ada', last: 'Lovelace' },
  policy: {},
  metadata: {},
  kycStatus: 'pending',
  depositAddress: null,
  createdAt: '2026-11-21T12:00:00.000Z',
};

describe('Prism validates what the spec means (JSON Schema 2020-12)', () => {
  let upstream: Awaited<ReturnType<typeof startStubUpstream>>;
  const prisms: PrismProcess[] = [];
  let declared: PrismProcess;
  let undeclared: PrismProcess;
  let customer: PrismProcess;

  beforeAll(async () => {
    upstream = await startStubUpstream((_method, path) => {
      if (path === '/v1/probe') return { status: 200, body: { a: 'x', b: 1 } };
      if (path === '/v1/customers/cus_valid') return { status: 200, body: VALID_CUSTOMER };
      const { email: _dropped, ...withoutEmail } = VALID_CUSTOMER;
      return { status: 200, body: withoutEmail };
    });
    const probe = documentWith2020OnlyKeyword();
    [declared, undeclared, customer] = await Promise.all([
      startPrism({ kind: 'proxy', document: writeDocumentFor2020(probe, 'probe'), upstream: `${upstream.url}/v1` }),
      startPrism({ kind: 'proxy', document: writeDocumentFile(probe, 'probe'), upstream: `${upstream.url}/v1` }),
      startPrism({
        kind: 'proxy',
        document: writeDocumentFor2020(loadSpecs().customer.document, 'customer'),
        upstream: `${upstream.url}/v1`,
      }),
    ]);
    prisms.push(declared, undeclared, customer);
  });

  afterAll(async () => {
    await Promise.all(prisms.map((p) => p.stop()));
    await upstream?.close();
  });

  it('with jsonSchemaDialect declared, the proxy rejects a violation only 2020-12 defines (unevaluatedProperties)', async () => {
    const response = await fetch(`${declared.url}/probe`);
    expect(response.status).toBe(500);
    expect(response.headers.get('sl-violations')).toContain('unevaluatedProperties');
  });

  it('without the declaration the same violation passes: Prism would check the spec as draft-07', async () => {
    const response = await fetch(`${undeclared.url}/probe`);
    expect(response.status).toBe(200);
    expect(response.headers.get('sl-violations')).toBeNull();
  });

  it('the derived customer bundle passes a valid response through unchanged', async () => {
    const response = await fetch(`${customer.url}/customers/cus_valid`, {
      headers: { Authorization: 'Bearer sk_test_abcdefgh' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(VALID_CUSTOMER);
  });

  it('the derived customer bundle fails a response that drops a required field, and the recorder fails the run', async () => {
    // The recorder every proxied suite uses: Prism's verdict becomes a violation, which fails the test that caused it.
    const recorder = new ContractRecorder({ suite: 'prism-dialect', basePath: '' });
    const response = await recorder.fetch(`${customer.url}/customers/cus_broken`, {
      headers: { Authorization: 'Bearer sk_test_abcdefgh' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('sl-violations')).toContain('email');
    expect(recorder.violations).toContainEqual(
      expect.objectContaining({
        check: 'prism_violation',
        operation: 'customer getCustomer',
        message: expect.stringContaining('email'),
      }),
    );
  });
});

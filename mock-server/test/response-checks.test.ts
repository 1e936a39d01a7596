// Response checks (`validateResponses`): the schema of each documented status is found in the spec's documents, not
// in the routing table every mock loads, and an undocumented status or a body outside the schema is reported.
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { bundledOperations } from '../src/spec/bundled-operations.js';
import { loadBundledDocuments } from '../src/spec/documents.js';
import { operationValidator, SpecValidator } from '../src/spec/validator.js';

async function getCardValidator() {
  const compiler = await SpecValidator.load(await loadBundledDocuments());
  const spec = bundledOperations('customer').find((operation) => operation.operationId === 'getCard');
  if (!spec) throw new Error('getCard is not in the routing table');
  return operationValidator(spec, compiler.compileRequest(spec), (status) => compiler.compileResponse(spec, status));
}

describe('response checks', () => {
  it("check a body against its status's schema, from the documents, and name a status the spec does not document", async () => {
    const mock = createMockServer();
    const missing = await mock.handle(
      new Request('http://127.0.0.1:4010/v1/cards/card_doesnotexist0000000', {
        headers: { Authorization: 'Bearer sk_test_responsecheck1' },
      }),
    );
    expect(missing.status).toBe(404);
    const notFound: unknown = await missing.json();

    const validator = await getCardValidator();
    expect(validator.response(404, notFound)).toBeUndefined();
    expect(validator.response(200, notFound)).toMatch(/must have required property/);
    expect(validator.response(418, notFound)).toBe('status 418 is not documented for getCard');
  });

  it('answer a documented body as is when the mock checks its responses', async () => {
    const mock = createMockServer({ validateResponses: true });
    const headers = { Authorization: 'Bearer sk_test_responsecheck2', 'Content-Type': 'application/json' };
    const created = await mock.handle(
      new Request('http://127.0.0.1:4010/v1/customers', {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'ada@example.com' }),
      }),
    );
    expect(created.status).toBe(201);
    const missing = await mock.handle(new Request('http://127.0.0.1:4010/v1/customers/cus_doesnotexist000000000', { headers }));
    expect(missing.status).toBe(404);
  });
});

// The built package validates requests with validators precompiled from the bundled spec (dist/validators); the
// source tree compiles them with Ajv at run time. Both must refuse the same requests with the same 400 answer.
// Uses the built dist/ (the root `npm test` builds before testing).
import { describe, expect, it } from 'vitest';
import { loadSpecDocuments } from '../src/spec/documents.js';
import { extractOperations, type OperationSpec } from '../src/spec/operations.js';
import { operationValidator, SpecValidator, type OperationValidator } from '../src/spec/validator.js';
import { loadPrecompiledChecks as loadFrom } from '../src/spec/precompiled-validators.js';

const dist = new URL('../dist/', import.meta.url);

describe('precompiled request validators', () => {
  const loadPrecompiledChecks = (operation: OperationSpec) => loadFrom(operation, dist);
  const documents = loadSpecDocuments();
  const runtime = new SpecValidator(documents);
  const operations = (['customer', 'user'] as const).flatMap((variant) => extractOperations(documents[variant], variant));
  const noResponses = () => {
    throw new Error('not used');
  };
  const pair = (operation: OperationSpec): [OperationValidator, OperationValidator] => {
    const checks = loadPrecompiledChecks(operation);
    if (!checks) throw new Error(`no precompiled validators for ${operation.variant} ${operation.operationId}`);
    return [
      operationValidator(operation, checks, noResponses),
      operationValidator(operation, runtime.compileRequest(operation), noResponses),
    ];
  };
  // Values that break most schemas in a different way each: wrong types, empty and huge strings, bad enums.
  const oddValues: unknown[] = [null, 42, -1, 1.5, '', 'x'.repeat(5000), true, [], {}, { unknown: 1 }, 'not-an-enum'];

  it('exist for every operation of both variants', () => {
    for (const operation of operations) expect(loadPrecompiledChecks(operation), operation.operationId).toBeDefined();
  });

  it('answer exactly like run-time compiled validators, for bodies, queries and path parameters', () => {
    let compared = 0;
    for (const operation of operations) {
      const [precompiled, compiled] = pair(operation);
      const answer = (error: { toBody(): unknown } | undefined) => error?.toBody();
      if (operation.requestBody) {
        for (const value of [...oddValues, { amount: 'ten', email: 5, limit: -3 }]) {
          expect(answer(precompiled.body(structuredClone(value))), operation.operationId).toEqual(
            answer(compiled.body(structuredClone(value))),
          );
          compared++;
        }
      }
      for (const name of [...operation.queryParameters.map((p) => p.name), 'undeclared']) {
        for (const value of ['', '-5', 'abc', '1000000', 'true']) {
          const a = { [name]: value };
          const b = { [name]: value };
          expect(answer(precompiled.query(a)), `${operation.operationId} ?${name}=${value}`).toEqual(answer(compiled.query(b)));
          // Coercion and defaults are applied in place alike.
          expect(a).toEqual(b);
          compared++;
        }
      }
      for (const parameter of operation.pathParameters) {
        for (const value of ['', 'card_123', 'x'.repeat(300)]) {
          expect(answer(precompiled.path({ [parameter.name]: value }))).toEqual(
            answer(compiled.path({ [parameter.name]: value })),
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

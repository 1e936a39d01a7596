// The mock validates requests to the bundled spec with checks generated from it (src/spec/generated: Ajv standalone
// code as ES modules), and routes with a generated table; other documents are compiled with Ajv at run time. Both
// must refuse the same requests with the same 400 answer, and the table must be what the documents say.
import { documents } from '@cardrail/spec/documents';
import { beforeAll, describe, expect, it } from 'vitest';
import { VARIANTS } from '../src/core/variant.js';
import { bundledOperations } from '../src/spec/bundled-operations.js';
import { extractOperations, type OperationSpec } from '../src/spec/operations.js';
import { loadPrecompiledChecks } from '../src/spec/precompiled-validators.js';
import { operationValidator, SpecValidator, type OperationValidator } from '../src/spec/validator.js';

describe('generated spec modules', () => {
  const operations = VARIANTS.flatMap((variant) => extractOperations(documents[variant], variant));

  it('route exactly the operations the documents describe', () => {
    for (const variant of VARIANTS) {
      expect(bundledOperations(variant)).toEqual(extractOperations(documents[variant], variant));
    }
  });

  describe('precompiled request validators', () => {
    let runtime: SpecValidator;
    beforeAll(async () => {
      runtime = await SpecValidator.load(documents);
    });
    const noResponses = () => {
      throw new Error('not used');
    };
    const pair = async (operation: OperationSpec): Promise<[OperationValidator, OperationValidator]> => {
      const checks = await loadPrecompiledChecks(operation);
      if (!checks) throw new Error(`no precompiled validators for ${operation.variant} ${operation.operationId}`);
      return [
        operationValidator(operation, checks, noResponses),
        operationValidator(operation, runtime.compileRequest(operation), noResponses),
      ];
    };
    // Values that break most schemas in a different way each: wrong types, empty and huge strings, bad enums.
    const oddValues: unknown[] = [null, 42, -1, 1.5, '', 'x'.repeat(5000), true, [], {}, { unknown: 1 }, 'not-an-enum'];

    it('exist for every operation of both variants', async () => {
      for (const operation of operations) expect(await loadPrecompiledChecks(operation), operation.operationId).toBeDefined();
    });

    it('answer exactly like run-time compiled validators, for bodies, queries and path parameters', async () => {
      let compared = 0;
      for (const operation of operations) {
        const [precompiled, compiled] = await pair(operation);
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

    it('count string lengths in code points, like Ajv at run time (the helper the generated code imports)', async () => {
      const create = operations.find(
        (operation) => operation.variant === 'customer' && operation.operationId === 'createCustomer',
      );
      if (!create) throw new Error('createCustomer is missing');
      const [precompiled] = await pair(create);
      // 100 emoji are 200 UTF-16 units but 100 code points: within a 100-character name.
      expect(precompiled.body({ email: 'ada@example.com', name: { first: '😀'.repeat(100) } })).toBeUndefined();
      expect(precompiled.body({ email: 'ada@example.com', name: { first: '😀'.repeat(101) } })?.toBody()).toMatchObject({
        error: { code: 'invalid_request' },
      });
    });
  });
});

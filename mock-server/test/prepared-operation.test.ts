// An operation's validators load on its first request; a load that failed (a chunk that did not arrive) is tried
// again by the next request instead of failing the operation for good.
import { describe, expect, it } from 'vitest';
import { bundledOperations } from '../src/spec/bundled-operations.js';
import { prepareOperation } from '../src/http/prepared-operation.js';
import type { OperationValidator } from '../src/spec/validator.js';

describe('prepareOperation', () => {
  const spec = bundledOperations('customer')[0];
  if (!spec) throw new Error('no operation in the routing table');
  const validator = {} as OperationValidator;

  it('is not ready before its load, and refuses to hand out a validator it does not have', () => {
    const prepared = prepareOperation(spec, async () => validator);
    expect(prepared.ready).toBe(false);
    expect(() => prepared.validator).toThrow(/before it was loaded/);
  });

  it('loads once for concurrent callers, and retries after a failed load', async () => {
    let calls = 0;
    const prepared = prepareOperation(spec, async () => {
      calls++;
      if (calls === 1) throw new Error('chunk failed to load');
      return validator;
    });
    await expect(prepared.load()).rejects.toThrow('chunk failed to load');
    expect(prepared.ready).toBe(false);
    await Promise.all([prepared.load(), prepared.load()]);
    expect(calls).toBe(2);
    expect(prepared.ready).toBe(true);
    expect(prepared.validator).toBe(validator);
  });
});

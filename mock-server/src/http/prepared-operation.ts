import type { OperationSpec } from '../spec/operations.js';
import type { OperationValidator } from '../spec/validator.js';

/** A spec operation with its validators, compiled on the operation's first request. */
export interface PreparedOperation {
  spec: OperationSpec;
  readonly validator: OperationValidator;
}

/**
 * Compiling every operation's schemas would cost the whole start-up budget, and a test suite touches a few
 * operations; so each operation compiles on first use (the compiled validators are then cached per documents).
 */
export function prepareOperation(spec: OperationSpec, compile: (spec: OperationSpec) => OperationValidator): PreparedOperation {
  let validator: OperationValidator | undefined;
  return {
    spec,
    get validator() {
      validator ??= compile(spec);
      return validator;
    },
  };
}

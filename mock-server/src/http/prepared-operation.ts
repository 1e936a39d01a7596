import type { OperationSpec } from '../spec/operations.js';
import type { OperationValidator } from '../spec/validator.js';

/** A spec operation with its validators compiled. */
export interface PreparedOperation {
  spec: OperationSpec;
  validator: OperationValidator;
}

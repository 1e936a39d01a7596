import type { Variant } from '../core/variant.js';
import { bundledOperationRecords } from './generated/operations.js';
import { fromOperationRecord, type OperationSpec } from './operations.js';

/**
 * The operations of the bundled spec, from the generated routing table: the same list `extractOperations` gives for
 * the bundled documents (a test holds them equal), without loading the documents.
 */
export function bundledOperations(variant: Variant): OperationSpec[] {
  return bundledOperationRecords[variant].map(fromOperationRecord);
}

import { VARIANTS, type Variant } from '../core/variant.js';
import type { SpecDocuments } from './documents.js';
import { bundledOperationRecords } from './generated/operations.js';
import { extractOperations, fromOperationRecord, type OperationSpec } from './operations.js';

/**
 * The operations of the bundled spec, from the generated routing table: the same list `extractOperations` gives for
 * the bundled documents (a test holds them equal), without loading the documents.
 */
export function bundledOperations(variant: Variant): OperationSpec[] {
  return bundledOperationRecords[variant].map(fromOperationRecord);
}

/** Every operationId the mock routes, of both variants (each once): the bundled spec's, or those of `documents`. */
export function operationIdsOf(documents: SpecDocuments | undefined): string[] {
  const ids = VARIANTS.flatMap((variant) =>
    documents
      ? extractOperations(documents[variant], variant).map((op) => op.operationId)
      : bundledOperationRecords[variant].map((op) => op.operationId),
  );
  return [...new Set(ids)];
}

import type { Variant } from '../core/variant.js';
import type { OperationSpec, ParameterSpec } from './operations.js';

/**
 * What the mock validates, as JSON Schemas that point into the spec documents: shared by the run-time compiler
 * (validator.ts) and the generator that precompiles the same schemas (scripts/generate-spec-modules.ts), so both
 * validate exactly alike.
 */
export function documentId(variant: Variant): string {
  return `https://cardrail.dev/spec/${variant}.json`;
}

/**
 * Ajv options. Bodies are validated as sent; path and query values (always text on the wire) are coerced to
 * the types their schemas declare. strict: false on purpose: the documents carry OpenAPI keywords (example,
 * x-cardrail-*) that are not JSON Schema. validateSchema: false because the documents are checked at build time
 * (Redocly lint, check-spec) and meta-validating them here would cost most of the start-up.
 */
export function ajvOptions(coerce: boolean) {
  return {
    strict: false,
    allErrors: false,
    useDefaults: true,
    coerceTypes: coerce,
    validateFormats: true,
    validateSchema: false,
  } as const;
}

export interface OperationSchemas {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

export function operationSchemas(operation: OperationSpec): OperationSchemas {
  const base = documentId(operation.variant);
  const ref = (pointer: string) => ({ $ref: `${base}${pointer}` });
  return {
    path: parametersSchema(operation.pathParameters, ref, false),
    query: parametersSchema(operation.queryParameters, ref, true),
    body: operation.requestBody ? ref(operation.requestBody.pointer) : undefined,
  };
}

function parametersSchema(
  parameters: ParameterSpec[],
  ref: (pointer: string) => { $ref: string },
  closed: boolean,
): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, ref(p.schemaPointer)])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: !closed,
  };
}

/** The names under which the generated modules (src/spec/generated/validators) export an operation's checks. */
export const pathExportName = (operationId: string): string => `${operationId}_path`;
export const queryExportName = (operationId: string): string => `${operationId}_query`;
export const bodyExportName = (operationId: string): string => `${operationId}_body`;

/**
 * Ajv's run-time helpers that its standalone code requires, by module, and the name validator-runtime.ts exports
 * each under: the generator turns every such require into an import of that name.
 */
export const VALIDATOR_RUNTIME_IMPORTS: Readonly<Record<string, string>> = {
  'ajv/dist/runtime/equal': 'equal',
  'ajv/dist/runtime/ucs2length': 'ucs2length',
};

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Variant } from '../core/variant.js';
import { invalidRequest, type ApiError } from '../http/errors.js';
import type { SpecDocuments } from './documents.js';
import type { OperationSpec, ParameterSpec } from './operations.js';
import { getOrCreate } from '../core/get-or-create.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/** The compiled validators of one operation; each returns an ApiError (400 invalid_request) or undefined. */
export interface OperationValidator {
  /** Validates (and coerces, and fills defaults into) path parameters in place. */
  path(params: Record<string, unknown>): ApiError | undefined;
  /** Validates (and coerces, and fills defaults into) the query in place; unknown parameters are refused. */
  query(query: Record<string, unknown>): ApiError | undefined;
  /** Validates the parsed JSON body in place (schema defaults are filled in). */
  body(body: unknown): ApiError | undefined;
  /** Checks a response the mock is about to send; returns a description of the mismatch, if any. */
  response(status: number, body: unknown): string | undefined;
}

function documentId(variant: Variant): string {
  return `https://cardrail.dev/spec/${variant}.json`;
}

function createAjv(coerce: boolean): Ajv2020 {
  // strict: false on purpose: the documents carry OpenAPI keywords (example, x-cardrail-*) that are not JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: false, useDefaults: true, coerceTypes: coerce, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

/**
 * Validation from the spec, compiled once per operation when the server starts. Bodies are validated as sent;
 * path and query values (always text on the wire) are coerced to the types their schemas declare.
 */
export class SpecValidator {
  readonly #bodies: Ajv2020;
  readonly #parameters: Ajv2020;

  constructor(documents: SpecDocuments) {
    this.#bodies = createAjv(false);
    this.#parameters = createAjv(true);
    for (const variant of Object.keys(documents) as Variant[]) {
      this.#bodies.addSchema(documents[variant], documentId(variant));
      this.#parameters.addSchema(documents[variant], documentId(variant));
    }
  }

  compile(operation: OperationSpec): OperationValidator {
    const base = documentId(operation.variant);
    const ref = (pointer: string) => ({ $ref: `${base}${pointer}` });
    const path = this.#parameters.compile(parametersSchema(operation.pathParameters, ref, false));
    const query = this.#parameters.compile(parametersSchema(operation.queryParameters, ref, true));
    const body = operation.requestBody ? this.#bodies.compile(ref(operation.requestBody.pointer)) : undefined;
    const responses = new Map<number, string>(operation.responseSchemas);
    const compiledResponses = new Map<number, ValidateFunction>();
    return {
      path: (params) => check(path, params, 'path'),
      query: (values) => {
        for (const parameter of operation.queryParameters) {
          if (values[parameter.name] === undefined && parameter.defaultValue !== undefined) {
            values[parameter.name] = parameter.defaultValue;
          }
        }
        return check(query, values, 'query');
      },
      body: (value) => (body ? check(body, value, 'body') : undefined),
      response: (status, value) => {
        const pointer = responses.get(status);
        if (pointer === undefined) return `status ${status} is not documented for ${operation.operationId}`;
        const validate = getOrCreate(compiledResponses, status, () => this.#bodies.compile(ref(pointer)));
        // Responses are checked on a copy: defaults must not be filled into what is sent.
        if (validate(structuredClone(value))) return undefined;
        return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
      },
    };
  }
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

function check(validate: ValidateFunction, value: unknown, where: 'path' | 'query' | 'body'): ApiError | undefined {
  if (validate(value)) return undefined;
  const error = (validate.errors ?? [])[0];
  return error ? toApiError(error, where) : invalidRequest(`/${where}`, 'is invalid');
}

/** One Ajv error as 400 invalid_request naming the field (`/body/email`) and the reason. */
function toApiError(error: ErrorObject, where: 'path' | 'query' | 'body'): ApiError {
  let field = `/${where}${error.instancePath}`;
  let reason = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      field += `/${String(params.missingProperty)}`;
      reason = 'is required';
      break;
    case 'additionalProperties':
      field += `/${String(params.additionalProperty)}`;
      reason = where === 'body' ? 'is not an accepted field' : 'is not an accepted parameter';
      break;
    case 'enum':
      reason = `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`;
      break;
    case 'type':
      reason = `must be ${String(params.type)}`;
      break;
  }
  return invalidRequest(field, reason);
}

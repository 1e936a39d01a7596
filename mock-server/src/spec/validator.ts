import type { Ajv2020 as Ajv2020Type, ErrorObject } from 'ajv/dist/2020.js';
import { VARIANTS, type Variant } from '../core/variant.js';
import { invalidRequest, type HttpError } from '../core/errors.js';
import type { SpecDocuments } from './documents.js';
import { responseSchemaPointers, type OperationSpec } from './operations.js';
import { ajvOptions, documentId, operationSchemas } from './validation-schemas.js';
import { getOrCreate } from '../core/get-or-create.js';
import { defaultFunction } from '../core/cjs-interop.js';

/** A compiled schema check in Ajv's calling convention (errors on the function after a failed call). */
export interface SchemaCheck {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null | undefined;
}

/** The request checks of one operation, however they were compiled. */
export interface RequestChecks {
  path: SchemaCheck;
  query: SchemaCheck;
  body: SchemaCheck | undefined;
}

/** The compiled validators of one operation; each returns an HttpError (400 invalid_request) or undefined. */
export interface OperationValidator {
  /** Validates (and coerces, and fills defaults into) path parameters in place. */
  path(params: Record<string, unknown>): HttpError | undefined;
  /** Validates (and coerces, and fills defaults into) the query in place; unknown parameters are refused. */
  query(query: Record<string, unknown>): HttpError | undefined;
  /** Validates the parsed JSON body in place (schema defaults are filled in). */
  body(body: unknown): HttpError | undefined;
  /** Checks a response the mock is about to send; returns a description of the mismatch, if any. */
  response(status: number, body: unknown): string | undefined;
}

type AjvFactory = (coerce: boolean) => Ajv2020Type;

let ajvFactory: Promise<AjvFactory> | undefined;

/**
 * Ajv and ajv-formats, imported on first use: a mock running the precompiled checks of the bundled spec never loads
 * them, which is most of what its start-up would otherwise cost.
 */
function loadAjv(): Promise<AjvFactory> {
  ajvFactory ??= Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]).then(([ajvModule, formatsModule]) => {
    const { Ajv2020 } = ajvModule;
    const addFormats = defaultFunction<(ajv: Ajv2020Type) => unknown>(formatsModule);
    return (coerce) => {
      const ajv = new Ajv2020(ajvOptions(coerce));
      addFormats(ajv);
      return ajv;
    };
  });
  return ajvFactory;
}

/**
 * Validation compiled from the documents at run time with Ajv, one schema at a time: for documents other than the
 * bundled ones, and for response checks. Compiled response checks are kept, so every mock made from the same
 * documents shares them.
 */
export class SpecValidator {
  #bodies: Ajv2020Type | undefined;
  #parameters: Ajv2020Type | undefined;
  readonly #responses = new Map<string, SchemaCheck>();
  readonly #responsePointers = new Map<Variant, Map<string, Map<number, string>>>();

  private constructor(
    private readonly documents: SpecDocuments,
    private readonly createAjv: AjvFactory,
  ) {}

  /** A compiler over these documents, once Ajv is loaded. */
  static async load(documents: SpecDocuments): Promise<SpecValidator> {
    return new SpecValidator(documents, await loadAjv());
  }

  /** The request checks of an operation. */
  compileRequest(operation: OperationSpec): RequestChecks {
    const schemas = operationSchemas(operation);
    const parameters = this.#parametersAjv();
    return {
      path: parameters.compile(schemas.path),
      query: parameters.compile(schemas.query),
      body: schemas.body ? this.#bodiesAjv().compile(schemas.body) : undefined,
    };
  }

  /** The check of an operation's response body with this status, or undefined when the spec documents none. */
  compileResponse(operation: OperationSpec, status: number): SchemaCheck | undefined {
    const { variant, operationId } = operation;
    const pointers = getOrCreate(this.#responsePointers, variant, () => responseSchemaPointers(this.documents[variant]));
    const pointer = pointers.get(operationId)?.get(status);
    if (pointer === undefined) return undefined;
    const ref = `${documentId(variant)}${pointer}`;
    return getOrCreate(this.#responses, ref, () => this.#bodiesAjv().compile({ $ref: ref }));
  }

  #bodiesAjv(): Ajv2020Type {
    this.#bodies ??= this.#withDocuments(this.createAjv(false));
    return this.#bodies;
  }

  #parametersAjv(): Ajv2020Type {
    this.#parameters ??= this.#withDocuments(this.createAjv(true));
    return this.#parameters;
  }

  #withDocuments(ajv: Ajv2020Type): Ajv2020Type {
    for (const variant of VARIANTS) ajv.addSchema(this.documents[variant], documentId(variant));
    return ajv;
  }
}

/** The operation's validator from its request checks; response checks are compiled on first use. */
export function operationValidator(
  operation: OperationSpec,
  checks: RequestChecks,
  compileResponse: (status: number) => SchemaCheck | undefined,
): OperationValidator {
  const compiledResponses = new Map<number, SchemaCheck | undefined>();
  return {
    path: (params) => check(checks.path, params, 'path'),
    query: (values) => {
      for (const parameter of operation.queryParameters) {
        if (values[parameter.name] === undefined && parameter.defaultValue !== undefined) {
          values[parameter.name] = parameter.defaultValue;
        }
      }
      return check(checks.query, values, 'query');
    },
    body: (value) => (checks.body ? check(checks.body, value, 'body') : undefined),
    response: (status, value) => {
      const validate = getOrCreate(compiledResponses, status, () => compileResponse(status));
      if (validate === undefined) return `status ${status} is not documented for ${operation.operationId}`;
      // Responses are checked on a copy: defaults must not be filled into what is sent.
      if (validate(structuredClone(value))) return undefined;
      return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    },
  };
}

function check(validate: SchemaCheck, value: unknown, where: 'path' | 'query' | 'body'): HttpError | undefined {
  if (validate(value)) return undefined;
  const error = (validate.errors ?? [])[0];
  return error ? toHttpError(error, where) : invalidRequest(`/${where}`, 'is invalid');
}

/** One Ajv error (its `params` are keyword-specific, hence read through casts) as 400 invalid_request naming the field (`/body/email`) and the reason. */
function toHttpError(error: ErrorObject, where: 'path' | 'query' | 'body'): HttpError {
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
      // The event catalogs are long; their names are in docs/events.md (and GET /events answers them).
      reason = error.schemaPath.includes('/EventType/')
        ? 'is not an event type of this variant (docs/events.md lists them)'
        : `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`;
      break;
    case 'type':
      reason = `must be ${String(params.type)}`;
      break;
  }
  return invalidRequest(field, reason);
}

import type { Variant } from '../core/variant.js';
import { deref, type OpenApiDocument } from './documents.js';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

/** A path or query parameter and the JSON pointer of its schema in the document. */
export interface ParameterSpec {
  name: string;
  required: boolean;
  schemaPointer: string;
  /** The schema's `default`, applied when the parameter is absent. */
  defaultValue: unknown;
}

/** One operation of one variant's document, with what the HTTP layer needs to route and validate it. */
export interface OperationSpec {
  variant: Variant;
  operationId: string;
  method: Uppercase<HttpMethod>;
  /** The OpenAPI path template, e.g. `/cards/{cardId}`. */
  path: string;
  /** JSON pointer to the operation inside its document, for schema references. */
  pointer: string;
  pathParameters: ParameterSpec[];
  queryParameters: ParameterSpec[];
  /** Present when the operation takes a JSON body. */
  requestBody: { required: boolean; pointer: string } | undefined;
  /** The first 2xx status the spec lists: what a handler answers unless it says otherwise. */
  successStatus: number;
  /** JSON pointer of each documented response body schema, by status code. */
  responseSchemas: Map<number, string>;
  /** `/simulate/*`: test mode only. */
  testModeOnly: boolean;
}

/** An OperationSpec as plain JSON data, as the generated routing table (src/spec/generated/operations.ts) stores it. */
export interface OperationRecord
  extends Omit<OperationSpec, 'pathParameters' | 'queryParameters' | 'requestBody' | 'responseSchemas'> {
  pathParameters: ParameterRecord[];
  queryParameters: ParameterRecord[];
  requestBody?: OperationSpec['requestBody'];
  responseSchemas: [number, string][];
}

type ParameterRecord = Omit<ParameterSpec, 'defaultValue'> & { defaultValue?: unknown };

export function toOperationRecord(operation: OperationSpec): OperationRecord {
  const parameter = ({ name, required, schemaPointer, defaultValue }: ParameterSpec): ParameterRecord =>
    defaultValue === undefined ? { name, required, schemaPointer } : { name, required, schemaPointer, defaultValue };
  const { requestBody, ...rest } = operation;
  return {
    ...rest,
    ...(requestBody === undefined ? {} : { requestBody }),
    pathParameters: operation.pathParameters.map(parameter),
    queryParameters: operation.queryParameters.map(parameter),
    responseSchemas: [...operation.responseSchemas],
  };
}

export function fromOperationRecord(record: OperationRecord): OperationSpec {
  const parameter = (p: ParameterRecord): ParameterSpec => ({ ...p, defaultValue: p.defaultValue });
  return {
    ...record,
    pathParameters: record.pathParameters.map(parameter),
    queryParameters: record.queryParameters.map(parameter),
    requestBody: record.requestBody,
    responseSchemas: new Map(record.responseSchemas),
  };
}

function escapePointer(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Every operation of a document, as OperationSpec. The document is JSON: the casts below read the OpenAPI objects
 * whose shapes the spec's lint (Redocly, recommended-strict) guarantees for the bundled documents.
 */
export function extractOperations(document: OpenApiDocument, variant: Variant): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const itemPointer = (rawItem as { $ref?: string }).$ref ?? `#/paths/${escapePointer(path)}`;
    const item = deref<Record<string, unknown>>(document, rawItem);
    const shared = readParameters(document, item.parameters, `${itemPointer}/parameters`);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const operationId = operation.operationId;
      if (typeof operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const pointer = `${itemPointer}/${method}`;
      const own = readParameters(document, operation.parameters, `${pointer}/parameters`);
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const body = operation.requestBody
        ? deref<{ required?: boolean; content?: Record<string, unknown> }>(document, operation.requestBody)
        : undefined;
      const bodyPointer = (operation.requestBody as { $ref?: string } | undefined)?.$ref ?? `${pointer}/requestBody`;
      const responses = (operation.responses ?? {}) as Record<string, unknown>;
      const responseSchemas = new Map<number, string>();
      for (const [status, rawResponse] of Object.entries(responses)) {
        const code = Number(status);
        if (!Number.isInteger(code)) continue;
        const response = deref<{ content?: Record<string, { schema?: unknown }> }>(document, rawResponse as { $ref: string });
        if (response.content?.['application/json']?.schema === undefined) continue;
        const responseRef = (rawResponse as { $ref?: string }).$ref;
        responseSchemas.set(
          code,
          responseRef
            ? `${responseRef}/content/application~1json/schema`
            : `${pointer}/responses/${status}/content/application~1json/schema`,
        );
      }
      const successStatus = Object.keys(responses)
        .map(Number)
        .filter((code) => code >= 200 && code < 300)
        .sort((a, b) => a - b)[0];
      operations.push({
        variant,
        operationId,
        method: method.toUpperCase() as Uppercase<HttpMethod>,
        path,
        pointer,
        pathParameters: parameters.filter((p) => p.in === 'path').map(parameterSpec),
        queryParameters: parameters.filter((p) => p.in === 'query').map(parameterSpec),
        requestBody:
          body?.content?.['application/json'] !== undefined
            ? {
                required: body.required === true,
                pointer: `${bodyPointer}/content/application~1json/schema`,
              }
            : undefined,
        successStatus: successStatus ?? 200,
        responseSchemas,
        testModeOnly: path.startsWith('/simulate/'),
      });
    }
  }
  return operations;
}

function parameterSpec({ name, required, schemaPointer, defaultValue }: ParameterSpec): ParameterSpec {
  return { name, required, schemaPointer, defaultValue };
}

function readParameters(
  document: OpenApiDocument,
  raw: unknown,
  pointer: string,
): (ParameterSpec & { in: ParameterObject['in'] })[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((entry: unknown, index) => {
    const parameter = deref<ParameterObject>(document, entry as ParameterObject);
    const base = (entry as { $ref?: string }).$ref ?? `${pointer}/${index}`;
    const schema = parameter.schema ? deref<Record<string, unknown>>(document, parameter.schema) : {};
    return {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required === true,
      schemaPointer: `${base}/schema`,
      defaultValue: schema.default,
    };
  });
}

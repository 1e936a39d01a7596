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
  /** `/simulate/*`: test mode only. */
  testModeOnly: boolean;
}

/** An OperationSpec as plain JSON data, as the generated routing table (src/spec/generated/operations.ts) stores it. */
export interface OperationRecord extends Omit<OperationSpec, 'pathParameters' | 'queryParameters' | 'requestBody'> {
  pathParameters: ParameterRecord[];
  queryParameters: ParameterRecord[];
  requestBody?: OperationSpec['requestBody'];
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
  };
}

export function fromOperationRecord(record: OperationRecord): OperationSpec {
  const parameter = (p: ParameterRecord): ParameterSpec => ({ ...p, defaultValue: p.defaultValue });
  return {
    ...record,
    pathParameters: record.pathParameters.map(parameter),
    queryParameters: record.queryParameters.map(parameter),
    requestBody: record.requestBody,
  };
}

function escapePointer(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** One operation object of a document, where it is, and the path item holding it. */
interface DocumentOperation {
  path: string;
  method: HttpMethod;
  operation: Record<string, unknown>;
  /** JSON pointer to the operation. */
  pointer: string;
  itemPointer: string;
  item: Record<string, unknown>;
}

/**
 * The operations of a document, in its order. The document is JSON: the casts read the OpenAPI objects whose shapes
 * the spec's lint (Redocly, recommended-strict) guarantees for the bundled documents.
 */
function* documentOperations(document: OpenApiDocument): Generator<DocumentOperation> {
  for (const [path, rawItem] of Object.entries(document.paths)) {
    const itemPointer = (rawItem as { $ref?: string }).$ref ?? `#/paths/${escapePointer(path)}`;
    const item = deref<Record<string, unknown>>(document, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      if (typeof operation.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      yield { path, method, operation, pointer: `${itemPointer}/${method}`, itemPointer, item };
    }
  }
}

/** Every operation of a document, as OperationSpec. */
export function extractOperations(document: OpenApiDocument, variant: Variant): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const { path, method, operation, pointer, itemPointer, item } of documentOperations(document)) {
    const shared = readParameters(document, item.parameters, `${itemPointer}/parameters`);
    const own = readParameters(document, operation.parameters, `${pointer}/parameters`);
    const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
    const body = operation.requestBody
      ? deref<{ required?: boolean; content?: Record<string, unknown> }>(document, operation.requestBody)
      : undefined;
    const bodyPointer = (operation.requestBody as { $ref?: string } | undefined)?.$ref ?? `${pointer}/requestBody`;
    const successStatus = Object.keys((operation.responses ?? {}) as Record<string, unknown>)
      .map(Number)
      .filter((code) => code >= 200 && code < 300)
      .sort((a, b) => a - b)[0];
    operations.push({
      variant,
      operationId: operation.operationId as string,
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
      testModeOnly: path.startsWith('/simulate/'),
    });
  }
  return operations;
}

/**
 * The JSON pointer of each documented JSON response body schema of every operation, by operationId and status: what
 * response checks compile. Read from the document when a mock checks responses, so the routing table every mock loads
 * at start (src/spec/generated/operations.ts) does not carry them (they were 60% of it).
 */
export function responseSchemaPointers(document: OpenApiDocument): Map<string, Map<number, string>> {
  const byOperation = new Map<string, Map<number, string>>();
  for (const { operation, pointer } of documentOperations(document)) {
    const responseSchemas = new Map<number, string>();
    for (const [status, rawResponse] of Object.entries((operation.responses ?? {}) as Record<string, unknown>)) {
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
    byOperation.set(operation.operationId as string, responseSchemas);
  }
  return byOperation;
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

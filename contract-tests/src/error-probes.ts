import { fillPath } from './fuzz.js';
import { authHeaders, exampleBodyFor } from './request-builder.js';
import type { OperationInfo } from './spec.js';

/** One request built to draw a documented error status from an operation, and what the answer must say. */
export interface ErrorProbe {
  /** What is wrong with the request, for the test's output. */
  fault: string;
  request: Request;
  /** The `error.code` of the object form (400, 429), or the whole string form (`not_found`). */
  code: string;
  /** `error.details.field` the 400 must name, when the fault is one field. */
  field?: string;
}

/** Body fields that name another object; a 404 probe points them at nothing. */
const REFERENCE_FIELDS = ['customerId', 'userId', 'agentId', 'cardId', 'intentId'];

/** An id of the right shape (the example's prefix) that names nothing. */
function unknownIdLike(example: unknown, name: string): string {
  const prefix = typeof example === 'string' && example.includes('_') ? example.slice(0, example.indexOf('_')) : name;
  return `${prefix}_DoesNotExist1`;
}

/** The spec's example body, as the spec writes it: a body every operation documents and accepts as well-formed. */
export function exampleBody(op: OperationInfo): Record<string, unknown> | undefined {
  return exampleBodyFor(op, new Map());
}

function request(
  op: OperationInfo,
  baseUrl: string,
  path: Record<string, string>,
  headers: Record<string, string>,
  body: unknown,
  query = '',
): Request {
  const all: Record<string, string> = { ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  return new Request(`${baseUrl}${fillPath(op.path, path)}${query}`, {
    method: op.method.toUpperCase(),
    headers: all,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * Requests each of which the spec's 400 covers ("invalid parameters", bad bodies, test helpers called with a live
 * key), sent with real ids (`ids`) so that the fault, not a missing object, decides the answer. Every operation gets
 * at least the undeclared query parameter.
 */
export function badRequestProbes(
  op: OperationInfo,
  baseUrl: string,
  ids: Map<string, string>,
  testKey: string,
  liveKey: string,
): ErrorProbe[] {
  const path = Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`]));
  const auth = authHeaders(op.variant, testKey);
  const body = exampleBody(op);
  const probes: ErrorProbe[] = [
    {
      fault: 'an undeclared query parameter',
      request: request(op, baseUrl, path, auth, body, '?notAParameter=1'),
      code: 'invalid_request',
      field: '/query/notAParameter',
    },
  ];
  const limit = op.queryParams.find((p) => p.name === 'limit');
  if (limit && typeof limit.schema.minimum === 'number') {
    probes.push({
      fault: 'limit below its minimum',
      request: request(op, baseUrl, path, auth, body, `?limit=${limit.schema.minimum - 1}`),
      code: 'invalid_request',
      field: '/query/limit',
    });
  }
  const idempotency = op.headerParams.find((p) => p.name === 'Idempotency-Key');
  if (idempotency && typeof idempotency.schema.maxLength === 'number') {
    const tooLong = 'k'.repeat(idempotency.schema.maxLength + 1);
    probes.push({
      fault: 'an Idempotency-Key over its maxLength',
      request: request(op, baseUrl, path, { ...auth, 'Idempotency-Key': tooLong }, body),
      code: 'invalid_request',
      field: '/header/Idempotency-Key',
    });
  }
  if (op.requestBody) {
    probes.push({
      fault: 'a body that is an array, not an object',
      request: request(op, baseUrl, path, auth, []),
      code: 'invalid_request',
    });
  }
  if (op.path.startsWith('/simulate/')) {
    probes.push({
      fault: 'a test helper called with a live key',
      request: request(op, baseUrl, path, authHeaders(op.variant, liveKey), body),
      code: 'test_mode_only',
    });
  }
  return probes;
}

/**
 * A well-formed request naming objects that do not exist: unknown path ids, or, for a create that names its parent in
 * the body, unknown ids there. Undefined when the operation names no object.
 */
export function notFoundProbe(op: OperationInfo, baseUrl: string, apiKey: string): ErrorProbe | undefined {
  const path = Object.fromEntries(op.pathParams.map((p) => [p.name, unknownIdLike(p.example, p.name)]));
  const body = exampleBody(op);
  const referenced = REFERENCE_FIELDS.filter((field) => body !== undefined && typeof body[field] === 'string');
  if (op.pathParams.length === 0 && referenced.length === 0) return undefined;
  for (const field of referenced) if (body) body[field] = unknownIdLike(body[field], field);
  const names = [...op.pathParams.map((p) => `path ${p.name}`), ...referenced.map((f) => `body ${f}`)];
  return {
    fault: `unknown ${names.join(', ')}`,
    request: request(op, baseUrl, path, authHeaders(op.variant, apiKey), body),
    code: 'not_found',
  };
}

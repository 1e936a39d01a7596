import fc from 'fast-check';
import { FUZZ_SEED, fillPath, resolverFor, validValue, type BadRequestCase } from './fuzz.js';
import type { OperationInfo, SpecIndex, Variant } from './spec.js';

/** Body fields that name another object: a generated body gets the seeded organization's ids there. */
const ID_FIELDS = ['customerId', 'userId', 'agentId', 'cardId', 'intentId'] as const;

export function authHeaders(variant: Variant, apiKey: string): Record<string, string> {
  return variant === 'customer' ? { Authorization: `Bearer ${apiKey}` } : { 'Api-Key': apiKey };
}

/**
 * Valid bodies for an operation, generated from its schema (seeded), with id fields pointing at real objects and
 * webhook event lists drawn from the variant's own event types, so that schema-valid also means meaningful.
 */
export function validBodies(
  op: OperationInfo,
  spec: SpecIndex,
  ids: Map<string, string>,
  count: number,
  seedOffset = 0,
): Array<Record<string, unknown>> {
  if (!op.requestBody) return [];
  const types = [...spec.events.keys()];
  const arb = (validValue(op.requestBody.schema, resolverFor(spec)) as fc.Arbitrary<Record<string, unknown>>).chain((body) =>
    fc.subarray(types, { minLength: 1, maxLength: 4 }).map((events) => ({ body, events })),
  );
  return fc.sample(arb, { seed: FUZZ_SEED + seedOffset, numRuns: count }).map(({ body, events }) => {
    const copy: Record<string, unknown> = { ...body };
    for (const field of ID_FIELDS) if (field in copy && ids.has(field)) copy[field] = ids.get(field);
    if (Array.isArray(copy.events)) copy.events = events;
    return copy;
  });
}

/** The spec's example body of the operation, with its id fields pointing at real objects. */
export function exampleBodyFor(op: OperationInfo, ids: Map<string, string>): Record<string, unknown> | undefined {
  const example = op.requestBody?.example as Record<string, unknown> | undefined;
  if (example === undefined) return undefined;
  const copy: Record<string, unknown> = structuredClone(example);
  for (const field of ID_FIELDS) if (field in copy && ids.has(field)) copy[field] = ids.get(field);
  return copy;
}

/** A request to `op` with the seeded ids in its path, an optional body and the given headers. */
export function buildRequest(
  op: OperationInfo,
  baseUrl: string,
  ids: Map<string, string>,
  headers: Record<string, string>,
  body?: unknown,
  query = '',
): Request {
  const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`])));
  const init: RequestInit = { method: op.method.toUpperCase(), headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  return new Request(`${baseUrl}${path}${query}`, init);
}

/**
 * A request carrying one generated bad input: its raw body and content type, its query, or its path ids. The parts
 * the case leaves alone are well-formed (seeded ids, the schema's example body), so the bad part is the only fault.
 */
export function buildBadRequest(
  op: OperationInfo,
  baseUrl: string,
  ids: Map<string, string>,
  headers: Record<string, string>,
  c: BadRequestCase,
): Request {
  const pathParams =
    c.pathParams ?? Object.fromEntries(op.pathParams.map((p) => [p.name, ids.get(p.name) ?? `${p.name}_missing`]));
  const query = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
  const allHeaders: Record<string, string> = { ...headers };
  let body: string | undefined = c.body;
  if (body === undefined && op.requestBody) body = JSON.stringify(op.requestBody.example ?? {});
  if (body !== undefined) allHeaders['content-type'] = c.contentType ?? 'application/json';
  return new Request(`${baseUrl}${fillPath(op.path, pathParams)}${query}`, {
    method: op.method.toUpperCase(),
    headers: allHeaders,
    ...(body === undefined ? {} : { body }),
  });
}

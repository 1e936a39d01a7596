import { isPromise } from '../core/is-promise.js';
import type { StoredResponse } from '../core/idempotency.js';
import { refusalHeaders } from './hints.js';
import { HttpError, invalidRequest, notImplemented, responseMismatch } from '../core/errors.js';
import { runBuiltIn } from './run-built-in.js';
import { codecs } from '../variants/index.js';
import type { HandlerMap } from '../operations/handler-map.js';
import type { ServerServices } from '../operations/services.js';
import type { AdmittedRequest } from './request-context.js';
import { jsonResponse } from './response.js';

/** What runs an operation: the handlers, the services they are given, and whether answers are checked. */
export interface Execution {
  handlers: HandlerMap;
  services: ServerServices;
  /** Check every answer against the spec's response schema and answer 500 on a mismatch (for tests). */
  validateResponses?: boolean | undefined;
}

/** Printable ASCII without `%` and `+`: a query string that decoding leaves as it is. */
const PLAIN_QUERY = /^[\x21-\x24\x26-\x2a\x2c-\x7e]*$/;

/**
 * The query object's prototype: an empty object without a prototype of its own, so that a parameter named
 * `__proto__` or `constructor` is an ordinary (refused) key. (An `Object.create(null)` object would do the same but
 * keeps its properties in a dictionary, slower to fill and for the validator to read.)
 */
function QueryParameters(): void {}
QueryParameters.prototype = Object.create(null) as object;

/** The query string as an object; a repeated parameter becomes an array (which its schema then refuses). */
function queryObject(search: string): Record<string, unknown> {
  const query = new (QueryParameters as unknown as new () => Record<string, unknown>)();
  if (search === '') return query;
  // The common `limit=10&cursor=...` is split as URLSearchParams would, without building one.
  if (PLAIN_QUERY.test(search)) {
    for (const pair of search.split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (equals === -1) addParameter(query, pair, '');
      else addParameter(query, pair.slice(0, equals), pair.slice(equals + 1));
    }
    return query;
  }
  for (const [name, value] of new URLSearchParams(search)) addParameter(query, name, value);
  return query;
}

function addParameter(query: Record<string, unknown>, name: string, value: string): void {
  const previous = query[name];
  query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
}

/**
 * Validates the request against the operation's spec, runs its handler and (when asked) checks the answer against
 * the spec. HttpErrors become answers here, so that they are remembered for idempotent replay like any answer.
 * Answers synchronously when the handler does: most reads never wait, and a promise per request is a cost the
 * transports can avoid.
 */
export function execute(execution: Execution, input: AdmittedRequest): StoredResponse | Promise<StoredResponse> {
  const { spec, validator } = input.operation;
  const { handlers, services } = execution;
  const refuse = (error: unknown): StoredResponse => errorAnswer(error, input, services);
  // `text`: the body's JSON when a built-in handler answered a stored record (its kept text); else it is serialized.
  const answer = (result: HandlerResult, text?: string): StoredResponse => {
    const status = result.status ?? spec.successStatus;
    if (execution.validateResponses === true) {
      const mismatch = validator.response(status, result.body) ?? staleText(text, result.body);
      if (mismatch) {
        console.error(`[cardrail-mock] ${spec.operationId} answered outside the spec: ${mismatch}`);
        return refuse(responseMismatch(spec.operationId, mismatch));
      }
    }
    return jsonResponse(status, result.body, result.headers, text);
  };
  try {
    const params: Record<string, unknown> = { ...input.params };
    const query = queryObject(input.target.query);
    const renamed = renamedFieldSent(codecs[input.identity.variant].renamedFields, query, input.body);
    if (renamed) throw renamed;
    const failure =
      validator.path(params) ??
      validator.query(query) ??
      (input.body === undefined
        ? spec.requestBody?.required
          ? invalidRequest('/body', 'is required')
          : undefined
        : validator.body(input.body));
    if (failure) throw failure;

    const { variant, tenant, key } = input.identity;
    // Looked up by the operationId the router matched: see ErasedHandler.
    const override = (handlers as Record<string, ErasedHandler | undefined>)[spec.operationId];
    if (override) {
      const replaced = override({
        operation: spec,
        variant,
        tenant,
        apiKey: key,
        params,
        query,
        body: input.body,
        request: input.request,
        services,
      });
      return isPromise(replaced) ? replaced.then((result) => answer(result), refuse) : answer(replaced);
    }
    const result = runBuiltIn(variant, spec.operationId, {
      params,
      query,
      body: input.body,
      context: { tenant, variant, apiKey: key, services },
    });
    if (result === undefined) throw notImplemented(spec.operationId);
    return isPromise(result) ? result.then((built) => answer(built, built.text), refuse) : answer(result, result.text);
  } catch (error) {
    return refuse(error);
  }
}

/**
 * With response checks on, a kept text that is not the body rendered now: the record changed without its Collection
 * knowing (core/record-text.ts), which would also escape the change journal.
 */
function staleText(text: string | undefined, body: unknown): string | undefined {
  if (text === undefined || text === JSON.stringify(body)) return undefined;
  return 'its kept JSON text is older than the record it renders (a change made outside Collection.update)';
}

/**
 * A replacement handler seen from the router: its context and result are typed by operationId where it is written
 * (HandlerMap), and validated against the same spec here before it runs.
 */
type ErasedHandler = (ctx: object) => HandlerResult | Promise<HandlerResult>;

/** What a handler answers: its body, and its status and headers when not the operation's usual ones. */
interface HandlerResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A field the other variant names otherwise (`customerId` in a user-variant request) is refused naming it and the
 * name this variant uses, before the schema would only say that it is unknown or that the other is missing.
 */
function renamedFieldSent(
  renamed: Readonly<Record<string, string>>,
  query: Record<string, unknown>,
  body: unknown,
): HttpError | undefined {
  for (const [name, instead] of Object.entries(renamed)) {
    const where =
      name in query ? 'query' : body !== null && typeof body === 'object' && Object.hasOwn(body, name) ? 'body' : undefined;
    if (where)
      return invalidRequest(
        `/${where}/${name}`,
        `is not a ${where === 'body' ? 'field' : 'parameter'} of this variant: use \`${instead}\``,
        { use: instead },
      );
  }
  return undefined;
}

/**
 * An HttpError as its answer, a 404 with the hint of an id of the other mode when that is its cause (hints.ts);
 * anything else is a fault of the mock and propagates.
 */
function errorAnswer(error: unknown, input: AdmittedRequest, services: ServerServices): StoredResponse {
  if (!(error instanceof HttpError)) throw error;
  const headers = refusalHeaders(error, input.identity.tenant, services.directory, input.params);
  return jsonResponse(error.status, error.toBody(), headers);
}

import { isPromise } from '../core/is-promise.js';
import type { RateLimiter } from '../core/rate-limiter.js';
import { VARIANTS } from '../core/variant.js';
import type { SpecDocuments } from '../spec/documents.js';
import { bundledOperations } from '../spec/bundled-operations.js';
import { extractOperations, type OperationSpec } from '../spec/operations.js';
import { operationValidator, type OperationValidator } from '../spec/validator.js';
import { validatorSource } from '../spec/validator-source.js';
import { HttpError, internalError, notFound, refusalOf } from '../core/errors.js';
import { basePathHint } from './hints.js';
import { nearPathHint, type RoutedPath } from './near-path.js';
import type { HandlerMap } from '../operations/handler-map.js';
import type { ServerServices } from '../operations/services.js';
import { runOperation } from './pipeline.js';
import { targetOf } from './request-url.js';
import { type OperationsByVariant, prepareOperation } from './prepared-operation.js';
import { type Answer, RequestContext } from './request-context.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';
import type { ApiRequest } from '../operations/api-request.js';
import { type RouteMatch, RouteTree, routeParams } from './route-tree.js';
import { ConnectionDropped, type FaultRegistry } from '../core/faults.js';

/** The path every API route starts with: `/v1`. */
export const API_BASE_PATH = '/v1';

export interface HttpAppOptions {
  /** Documents to serve instead of the bundled ones (routed from the documents, validated with run-time Ajv). */
  documents?: SpecDocuments | undefined;
  handlers: HandlerMap;
  services: ServerServices;
  /** Per-key limit; undefined means no limit (the mock's default). */
  rateLimiter?: RateLimiter | undefined;
  /** Check every answer against the spec's response schema and answer 500 on a mismatch (for tests). */
  validateResponses?: boolean | undefined;
  /** Requests the rate limiter does not count (fixture loading). */
  exempt?: WeakSet<object> | undefined;
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** Faults a test injected (`mock.faults`). */
  faults?: FaultRegistry | undefined;
}

const ROUTABLE_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The HTTP face of the mock: one route per spec operation (both variants' paths), 405 with `Allow` for another
 * method on a known path, 404 `{"error":"not_found"}` for anything else. Each operation's validators are loaded
 * on its first request. Every answer carries the Request-Id the request was given (withRequestLog, request-log.ts).
 */
export function createHttpApp(options: HttpAppOptions): IdentifiedDispatch {
  const { documents } = options;
  const validators = loadValidator(documents, options.validateResponses === true);
  const byPath = new Map<string, Map<string, OperationsByVariant>>();
  for (const variant of VARIANTS) {
    // The bundled spec routes from its generated table, so a mock starts without parsing the documents.
    for (const spec of documents ? extractOperations(documents[variant], variant) : bundledOperations(variant)) {
      const methods = byPath.get(spec.path) ?? new Map<string, OperationsByVariant>();
      byPath.set(spec.path, methods);
      const candidates = methods.get(spec.method) ?? {};
      methods.set(spec.method, candidates);
      candidates[variant] = prepareOperation(spec, validators);
    }
  }

  // One tree of every path and method: made in a fraction of a millisecond (route-tree.ts).
  const routes = new RouteTree<OperationsByVariant>();
  for (const [path, methods] of byPath) {
    for (const [method, operations] of methods) routes.add(API_BASE_PATH + path, method, operations);
  }

  const known: RoutedPath[] = [...byPath].map(([path, methods]) => ({
    path: API_BASE_PATH + path,
    methods: [...methods.keys()],
  }));

  return (request, requestId) => {
    try {
      // HEAD is answered as GET; the transports send its headers without the body.
      const target = targetOf(request);
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const routable = ROUTABLE_METHODS.has(method);
      const matched = routable ? routes.match(target.path) : undefined;
      if (!matched) {
        const hint =
          basePathHint(target.path, (path) => routable && routes.match(path) !== undefined) ??
          (routable ? nearPathHint(method, target.path, known) : undefined);
        return unrouted(hint, requestId);
      }
      const route = matched.routes.get(method);
      if (!route) return methodNotAllowed(matched, requestId);
      const routed = { operations: route.value, params: routeParams(route, matched.values) };
      const result = runOperation(options, new RequestContext(request, requestId, target, routed));
      if (!isPromise(result)) return result;
      return result.catch((error: unknown) => {
        // A fault's dropped connection is for the transport to carry out, not a fault of the mock.
        if (error instanceof ConnectionDropped) throw error;
        return unexpected(error, requestId);
      });
    } catch (error) {
      return unexpected(error, requestId);
    }
  };
}

/**
 * Answers a request; synchronously when nothing in it has to wait (see runOperation). Transports turn the answer
 * into their own response: a web Response for `handle` and MSW, a direct write for the Node server.
 */
export type Dispatch = (request: ApiRequest) => Answer;

/**
 * Answers a request under the Request-Id it was given (request-log.ts gives each one its id, outermost): every answer
 * to it, the app's and those of the steps around it (the commit, the gate, a stopped mock), carries that one id, the
 * one the request log prints.
 */
export type IdentifiedDispatch = (request: ApiRequest, requestId: string) => Answer;

/** What a transport hands to `Dispatch`: a contract of operations/, which the transports reach through this layer. */
export type { ApiRequest };

/** Another method on a known path: 405 with `Allow` (the path's methods, and HEAD where it has GET). */
function methodNotAllowed(matched: RouteMatch<unknown>, requestId: string): WireResponse {
  const allow = [...matched.routes.keys()];
  if (allow.includes('GET')) allow.push('HEAD');
  const error = new HttpError(405, 'method_not_allowed', `Method not allowed; this path accepts ${allow.join(', ')}.`, {
    allow,
  });
  return toWire(jsonResponse(405, error.toBody(), { Allow: allow.join(', ') }), requestId);
}

/** A path no route has: 404, with a hint when the base URL or a near-miss of a route looks like the cause. */
function unrouted(hint: string | undefined, requestId: string): WireResponse {
  const failure = notFound(hint);
  return toWire(jsonResponse(404, failure.toBody(), failure.headers), requestId);
}

/** An error no step turned into an answer: 503 when the state is out of reach (StateUnavailable), else 500, logged. */
function unexpected(error: unknown, requestId: string): WireResponse {
  const refusal = refusalOf(error);
  if (refusal) return toWire(jsonResponse(refusal.status, refusal.toBody(), refusal.headers), requestId);
  console.error('[cardrail-mock] unexpected error', error);
  return toWire(jsonResponse(500, internalError().toBody()), requestId);
}

/**
 * How the mock loads an operation's validator: its request checks, and with `validateResponses` the compiler its
 * response checks need, so that every check runs synchronously once the operation has been loaded.
 */
function loadValidator(
  documents: SpecDocuments | undefined,
  validateResponses: boolean,
): (spec: OperationSpec) => Promise<OperationValidator> {
  const source = validatorSource(documents);
  return async (spec) => {
    const [checks, compiler] = await Promise.all([source.requestChecks(spec), validateResponses ? source.compiler() : undefined]);
    return operationValidator(spec, checks, (status) => {
      if (!compiler) throw new Error('Response checks are compiled only for a mock with validateResponses');
      return compiler.compileResponse(spec, status);
    });
  };
}

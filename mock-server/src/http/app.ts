import { RegExpRouter } from 'hono/router/reg-exp-router';
import type { RateLimiter } from '../core/rate-limiter.js';
import { VARIANTS } from '../core/variant.js';
import type { SpecDocuments } from '../spec/documents.js';
import { bundledOperations } from '../spec/bundled-operations.js';
import { extractOperations, toHonoPath, type OperationSpec } from '../spec/operations.js';
import { operationValidator, type OperationValidator } from '../spec/validator.js';
import { validatorSource } from '../spec/validator-source.js';
import { HINT_HEADER, HttpError, internalError, notFound } from '../core/errors.js';
import { basePathHint } from './hints.js';
import type { HandlerMap } from '../operations/handler-map.js';
import type { ServerServices } from '../operations/services.js';
import { runOperation } from './pipeline.js';
import { requestTarget } from './request-url.js';
import { type OperationsByVariant, prepareOperation } from './prepared-operation.js';
import { type Answer, RequestContext } from './request-context.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';
import type { ApiRequest } from '../operations/api-request.js';
import { matchRoute } from './route-match.js';
import { getOrCreate } from '../core/get-or-create.js';
import { ConnectionDropped, type FaultRegistry } from '../core/faults.js';
import { FAULT_HEADER } from './fault-step.js';

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
  /** One line per request. */
  log?: ((line: string) => void) | undefined;
  /** Requests the rate limiter does not count (fixture loading). */
  exempt?: WeakSet<object> | undefined;
  requestId: () => string;
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** Faults a test injected (`mock.faults`). */
  faults?: FaultRegistry | undefined;
}

const ROUTABLE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The HTTP face of the mock: one route per spec operation (both variants' paths), 405 with `Allow` for another
 * method on a known path, 404 `{"error":"not_found"}` for anything else. Each operation's validators are loaded
 * on its first request.
 */
export function createHttpApp(options: HttpAppOptions): Dispatch {
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

  // Static segments before parameters, so `/a/b` is never taken for `/a/{id}` (the first match wins). Ties in code
  // unit order: localeCompare would load the ICU collator, a sixth of a mock's start-up.
  const paths = [...byPath.entries()]
    .map((entry) => ({ entry, rank: specificity(entry[0]) }))
    .sort((a, b) => b.rank - a.rank || (a.entry[0] < b.entry[0] ? -1 : a.entry[0] > b.entry[0] ? 1 : 0))
    .map(({ entry }) => entry);
  // One router per method, made on the first request of that method: Hono's RegExpRouter compiles every method it
  // holds on its first match, so a router of its own per method compiles only the methods requests use, and a mock
  // that answers only GETs never builds the others (a sixth of the work each).
  const routers = new Map<string, RegExpRouter<Route>>();
  const routerOf = (method: string): RegExpRouter<Route> | undefined => {
    if (!(ROUTABLE_METHODS as readonly string[]).includes(method)) return undefined;
    return getOrCreate(routers, method, () => methodRouter(method, paths));
  };

  const answer = (request: ApiRequest, requestId: string): Answer => {
    try {
      // HEAD is answered as GET; the transports send its headers without the body.
      const target = requestTarget(request.url);
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const router = routerOf(method);
      const matched = router ? matchRoute(router, method, target) : undefined;
      if (!matched) {
        const routed = (path: string) => router !== undefined && matchRoute(router, method, { path, query: '' }) !== undefined;
        return unrouted(target.path, routed, requestId);
      }
      const { route } = matched;
      if (route instanceof MethodNotAllowed) return route.answer(requestId);
      const result = runOperation(options, new RequestContext(request, requestId, target, { route, params: matched.params }));
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        // A fault's dropped connection is for the transport to carry out, not a fault of the mock.
        if (error instanceof ConnectionDropped) throw error;
        return unexpected(error, requestId);
      });
    } catch (error) {
      return unexpected(error, requestId);
    }
  };

  const log = options.log;
  if (!log) return (request) => answer(request, options.requestId());
  return (request) => {
    const started = performance.now();
    const requestId = options.requestId();
    const line = (outcome: string, fault: string | undefined, hint?: string): void => {
      const target = requestTarget(request.url);
      const ms = (performance.now() - started).toFixed(1);
      const query = target.query === '' ? '' : `?${target.query}`;
      const noted = `${fault ? ` fault=${fault}` : ''}${hint === undefined ? '' : ` hint: ${hint}`}`;
      log(`${request.method} ${target.path}${query} ${outcome} ${ms}ms ${requestId}${noted}`);
    };
    const logged = (response: WireResponse): WireResponse => {
      line(String(response.status), response.headers[FAULT_HEADER]?.split(';')[0], response.headers[HINT_HEADER]);
      return response;
    };
    const response = answer(request, requestId);
    if (!(response instanceof Promise)) return logged(response);
    return response.then(logged, (error: unknown) => {
      // A fault's dropped connection or held request has no answer; the log says so.
      if (error instanceof ConnectionDropped) line('dropped', error.faultId);
      throw error;
    });
  };
}

/**
 * Answers a request; synchronously when nothing in it has to wait (see runOperation). Transports turn the answer
 * into their own response: a web Response for `handle` and MSW, a direct write for the Node server.
 */
export type Dispatch = (request: ApiRequest) => Answer;

/**
 * What a path and method route to: the operation of each variant there, which the request runs through the pipeline
 * (pipeline.ts), or, for another method of a known path, the 405 of that path.
 */
type Route = OperationsByVariant | MethodNotAllowed;

/** Another method on a known path: 405 with `Allow` (its methods, and HEAD where it has GET). */
class MethodNotAllowed {
  readonly #allow: string[];

  constructor(methods: Map<string, unknown>) {
    this.#allow = [...methods.keys()];
    if (this.#allow.includes('GET')) this.#allow.push('HEAD');
  }

  answer(requestId: string): WireResponse {
    const allow = this.#allow;
    return toWire(jsonResponse(405, methodNotAllowed(allow).toBody(), { Allow: allow.join(', ') }), requestId);
  }
}

/** The router of one method: for each path in the order given, its operations when it has the method, else its 405. */
function methodRouter(method: string, paths: [string, Map<string, OperationsByVariant>][]): RegExpRouter<Route> {
  const router = new RegExpRouter<Route>();
  for (const [path, methods] of paths) {
    router.add(method, API_BASE_PATH + toHonoPath(path), methods.get(method) ?? new MethodNotAllowed(methods));
  }
  return router;
}

/** A path no route of its method has: 404, with a hint when the base URL looks like the cause. */
function unrouted(path: string, routed: (path: string) => boolean, requestId: string): WireResponse {
  const failure = notFound(basePathHint(path, routed));
  return toWire(jsonResponse(404, failure.toBody(), failure.headers), requestId);
}

function unexpected(error: unknown, requestId: string): WireResponse {
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
    return operationValidator(spec, checks, (pointer) => {
      if (!compiler) throw new Error('Response checks are compiled only for a mock with validateResponses');
      return compiler.compileResponse(spec.variant, pointer);
    });
  };
}

function specificity(path: string): number {
  return path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length * 100 - path.split('/').length;
}

function methodNotAllowed(allow: string[]): HttpError {
  return new HttpError(405, 'method_not_allowed', `Method not allowed; this path accepts ${allow.join(', ')}.`, {
    allow,
  });
}

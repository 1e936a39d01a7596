import { Hono } from 'hono';
import type { RateLimiter } from '../core/rate-limiter.js';
import { VARIANTS, type Variant } from '../core/variant.js';
import { isBundledDocuments, type SpecDocuments } from '../spec/documents.js';
import { extractOperations, toHonoPath, type OperationSpec } from '../spec/operations.js';
import { loadPrecompiledChecks } from '../spec/precompiled-validators.js';
import { operationValidator, SpecValidator, type OperationValidator } from '../spec/validator.js';
import { ApiError, internalError, notFound } from './errors.js';
import type { HandlerMap, ServerServices } from './operation-handler.js';
import { runOperation } from './pipeline.js';
import { prepareOperation, type PreparedOperation } from './prepared-operation.js';
import { jsonResponse, toResponse } from './response.js';
import { getOrCreate } from '../core/get-or-create.js';

export const API_BASE_PATH = '/v1';

export interface HttpAppOptions {
  documents: SpecDocuments;
  handlers: HandlerMap;
  services: ServerServices;
  /** Per-key limit; undefined means no limit (the mock's default). */
  rateLimiter?: RateLimiter | undefined;
  /** Check every answer against the spec's response schema and answer 500 on a mismatch (for tests). */
  validateResponses?: boolean | undefined;
  /** One line per request. */
  log?: ((line: string) => void) | undefined;
  /** Requests the rate limiter does not count (fixture loading). */
  exempt?: WeakSet<Request> | undefined;
  requestId: () => string;
}

const ROUTABLE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The HTTP face of the mock: one route per spec operation (both variants' paths), 405 with `Allow` for another
 * method on a known path, 404 `{"error":"not_found"}` for anything else. Each operation's validators are compiled
 * on its first request.
 */
export function createHttpApp(options: HttpAppOptions): (request: Request) => Promise<Response> {
  const validators = compiledValidators(options.documents);
  const byPath = new Map<string, Map<string, Partial<Record<Variant, PreparedOperation>>>>();
  for (const variant of VARIANTS) {
    for (const spec of extractOperations(options.documents[variant], variant)) {
      const methods = byPath.get(spec.path) ?? new Map<string, Partial<Record<Variant, PreparedOperation>>>();
      byPath.set(spec.path, methods);
      const candidates = methods.get(spec.method) ?? {};
      methods.set(spec.method, candidates);
      candidates[variant] = prepareOperation(spec, validators);
    }
  }

  const app = new Hono<{ Bindings: RequestBindings }>({ strict: true });
  // Static segments before parameters, so `/a/b` is never taken for `/a/{id}`.
  const paths = [...byPath.keys()].sort((a, b) => specificity(b) - specificity(a) || a.localeCompare(b));
  for (const path of paths) {
    const methods = byPath.get(path) as Map<string, Partial<Record<Variant, PreparedOperation>>>;
    const honoPath = API_BASE_PATH + toHonoPath(path);
    for (const [method, candidates] of methods) {
      app.on(method, honoPath, (c) =>
        runOperation(options, c.req.raw, c.env.requestId, c.req.param() as Record<string, string>, candidates),
      );
    }
    const allow = [...methods.keys()];
    if (allow.includes('GET')) allow.push('HEAD');
    const others = ROUTABLE_METHODS.filter((m) => !methods.has(m));
    if (others.length > 0) {
      app.on([...others], honoPath, (c) =>
        toResponse(jsonResponse(405, methodNotAllowed(allow).toBody(), { Allow: allow.join(', ') }), c.env.requestId),
      );
    }
  }
  app.notFound((c) => toResponse(jsonResponse(404, notFound().toBody()), c.env.requestId));
  app.onError((error, c) => {
    console.error('[cardrail-mock] unexpected error', error);
    return toResponse(jsonResponse(500, internalError().toBody()), c.env.requestId);
  });

  const log = options.log;
  if (!log) return async (request) => app.fetch(request, { requestId: options.requestId() });
  return async (request) => {
    const started = performance.now();
    const requestId = options.requestId();
    const response = await app.fetch(request, { requestId });
    const url = new URL(request.url);
    const ms = (performance.now() - started).toFixed(1);
    log(`${request.method} ${url.pathname}${url.search} ${response.status} ${ms}ms ${requestId}`);
    return response;
  };
}

/** What every route gets besides the request: the id its answer carries in `Request-Id`. */
interface RequestBindings {
  requestId: string;
}

/**
 * Validators are compiled once per set of documents and shared by every server made from it: they are pure, and
 * a test suite that starts a fresh mock per test should not pay for compiling the spec each time.
 */
const validatorCache = new WeakMap<SpecDocuments, (spec: OperationSpec) => OperationValidator>();

function compiledValidators(documents: SpecDocuments): (spec: OperationSpec) => OperationValidator {
  let compile = validatorCache.get(documents);
  if (!compile) {
    const runtime = new SpecValidator(documents);
    const precompiled = isBundledDocuments(documents);
    const compiled = new Map<string, OperationValidator>();
    compile = (spec) => {
      const key = `${spec.variant} ${spec.method} ${spec.path}`;
      return getOrCreate(compiled, key, () => {
        const checks = (precompiled ? loadPrecompiledChecks(spec) : undefined) ?? runtime.compileRequest(spec);
        return operationValidator(spec, checks, (pointer) => runtime.compileResponse(spec.variant, pointer));
      });
    };
    validatorCache.set(documents, compile);
  }
  return compile;
}

function specificity(path: string): number {
  return path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length * 100 - path.split('/').length;
}

function methodNotAllowed(allow: string[]): ApiError {
  return new ApiError(405, 'method_not_allowed', `Method not allowed; this path accepts ${allow.join(', ')}.`, {
    allow,
  });
}

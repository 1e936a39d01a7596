import type { RateLimiter } from '../core/rate-limiter.js';
import type { Variant } from '../core/variant.js';
import type { StoredResponse } from '../core/idempotency.js';
import { authenticate, type RequestIdentity } from './auth.js';
import { otherVariantHint } from './hints.js';
import { HttpError, internalError, notFound, testModeOnly } from '../core/errors.js';
import { execute } from './execute.js';
import { checkIdempotency, isReplayable } from './idempotency-step.js';
import { parseJsonBody, readJsonBody } from './json-body.js';
import { checkBodyText, checkDeclaredLength, readBodyText } from './body-limit.js';
import type { RequestTarget } from './request-url.js';
import type { HandlerMap } from '../operations/handler-map.js';
import type { ServerServices } from '../operations/services.js';
import type { PreparedOperation } from './prepared-operation.js';
import { applyRateLimit } from './rate-limit-step.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';
import type { ApiRequest } from '../operations/api-request.js';
import type { FaultRegistry } from '../core/faults.js';
import { answerWithFault, takeFault } from './fault-step.js';

export interface PipelineOptions {
  handlers: HandlerMap;
  services: ServerServices;
  rateLimiter?: RateLimiter | undefined;
  exempt?: WeakSet<object> | undefined;
  validateResponses?: boolean | undefined;
  /** The largest request body read, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Faults a test injected (`mock.faults`): checked before anything of a request runs. */
  faults?: FaultRegistry | undefined;
}

const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

/**
 * One routed request, in order: authentication (401), the caller's variant has the operation (404), due work,
 * rate limit (429), test mode only (400), the body read (413 past the size limit: nothing is read before the key
 * is known), JSON body (400, also past the nesting limit), idempotency (replay or 400), then validation and the
 * handler. After answering, the deliveries of the events it caused are started, never awaited.
 *
 * A request without an Idempotency-Key whose body (if any) the transport has already read has nothing to wait for,
 * so it is answered synchronously when its handler is: the Node transport then writes the answer in the same turn.
 * A request a fault takes (fault-step.ts) is answered by the fault, before any of this.
 */
export function runOperation(
  options: PipelineOptions,
  request: ApiRequest,
  target: RequestTarget,
  requestId: string,
  params: Record<string, string>,
  candidates: Partial<Record<Variant, PreparedOperation>>,
): WireResponse | Promise<WireResponse> {
  const { faults } = options;
  const fault =
    faults && faults.size > 0 ? takeFault(faults, request, target, candidates, options.services.directory) : undefined;
  if (fault === undefined || faults === undefined) return runUnfaulted(options, request, target, requestId, params, candidates);
  return answerWithFault(faults, fault, request, requestId, () =>
    runUnfaulted(options, request, target, requestId, params, candidates),
  );
}

function runUnfaulted(
  options: PipelineOptions,
  request: ApiRequest,
  target: RequestTarget,
  requestId: string,
  params: Record<string, string>,
  candidates: Partial<Record<Variant, PreparedOperation>>,
): WireResponse | Promise<WireResponse> {
  const headers: [string, string][] = [];
  const fail = (error: unknown): WireResponse => {
    if (!(error instanceof HttpError)) console.error('[cardrail-mock] handler failed', error);
    const failure = error instanceof HttpError ? error : internalError();
    return toWire(jsonResponse(failure.status, failure.toBody(), failure.headers), requestId, headers);
  };
  let identity: RequestIdentity;
  try {
    identity = authenticate(request, options.services.directory);
  } catch (error) {
    return fail(error);
  }
  // Held while the request runs: a tenant answering a request never leaves memory under it (idle eviction waits).
  const { tenant } = identity;
  tenant.requestsInFlight++;
  let result: WireResponse | Promise<WireResponse>;
  try {
    result = runAuthenticated(options, request, target, requestId, params, candidates, identity, headers, fail);
  } catch (error) {
    result = fail(error);
  }
  if (result instanceof Promise) {
    return result.finally(() => {
      tenant.requestsInFlight--;
    });
  }
  tenant.requestsInFlight--;
  return result;
}

function runAuthenticated(
  options: PipelineOptions,
  request: ApiRequest,
  target: RequestTarget,
  requestId: string,
  params: Record<string, string>,
  candidates: Partial<Record<Variant, PreparedOperation>>,
  identity: RequestIdentity,
  headers: [string, string][],
  fail: (error: unknown) => WireResponse,
): WireResponse | Promise<WireResponse> {
  const operation = candidates[identity.variant];
  // A path of the other variant (e.g. /users with a Bearer key) does not exist for this caller.
  if (!operation) throw notFound(otherVariantHint(identity.variant, target.path));
  // The operation's first request loads its validators, then runs from the start: authentication finds the same
  // organization again, and nothing else has happened yet.
  if (!operation.ready) {
    return operation.load().then(() => runUnfaulted(options, request, target, requestId, params, candidates), fail);
  }
  return runReady(options, request, target, requestId, params, identity, operation, headers, fail);
}

/** The pipeline from due work on, for a request whose key is known and whose operation is loaded. */
function runReady(
  options: PipelineOptions,
  request: ApiRequest,
  target: RequestTarget,
  requestId: string,
  params: Record<string, string>,
  identity: RequestIdentity,
  operation: PreparedOperation,
  headers: [string, string][],
  fail: (error: unknown) => WireResponse,
): WireResponse | Promise<WireResponse> {
  const { tenant, key } = identity;
  const { spec } = operation;
  // Work that fell due on a running clock is applied before the request reads state, and records past their
  // retention are dropped (each is dropped once: nothing to do on most requests).
  tenant.scheduler.runDue();
  tenant.prune();
  if (options.rateLimiter && !options.exempt?.has(request)) applyRateLimit(options.rateLimiter, key.id, tenant, headers);
  if (spec.testModeOnly && tenant.mode !== 'test') throw testModeOnly();

  const idempotencyKey = IDEMPOTENT_METHODS.has(spec.method) ? request.headers.get('idempotency-key') : null;
  const finish = (answer: StoredResponse): WireResponse => {
    tenant.scheduler.runDue();
    tenant.prune();
    return toWire(answer, requestId, headers);
  };
  const { bodyText } = request;
  if (idempotencyKey === null) {
    const run = (text: string | undefined): WireResponse | Promise<WireResponse> => {
      const body = text === undefined ? undefined : parseJsonBody(request, text);
      const input = { identity, request, query: target.query, params, body };
      const answer = execute(operation, options.handlers, options.services, options.validateResponses === true, input);
      return answer instanceof Promise ? answer.then(finish, fail) : finish(answer);
    };
    if (!spec.requestBody) return run(undefined);
    if (bodyText !== undefined) {
      checkDeclaredLength(request, options.maxBodyBytes);
      return run(checkBodyText(bodyText, options.maxBodyBytes));
    }
    // The body is still to arrive: one wait for it, then the same synchronous path.
    return readBodyText(request, options.maxBodyBytes).then((text) => {
      try {
        return run(text);
      } catch (error) {
        return fail(error);
      }
    }, fail);
  }
  return runWithBody(options, request, headers, identity, operation, target, idempotencyKey, params).then(finish, fail);
}

/** The rest of the pipeline for a request that has a body to read or an idempotency key to settle first. */
async function runWithBody(
  options: PipelineOptions,
  request: ApiRequest,
  headers: [string, string][],
  identity: RequestIdentity,
  operation: PreparedOperation,
  target: RequestTarget,
  idempotencyKey: string | null,
  params: Record<string, string>,
): Promise<StoredResponse> {
  const { spec } = operation;
  const body = spec.requestBody ? await readJsonBody(request, options.maxBodyBytes) : undefined;
  const idempotency = await checkIdempotency(identity.tenant, idempotencyKey, {
    variant: identity.variant,
    method: spec.method,
    path: target.path,
    body,
  });
  if (idempotency.kind === 'replay') {
    headers.push(['Idempotent-Replayed', 'true']);
    return idempotency.response;
  }
  let answer: StoredResponse;
  try {
    answer = await execute(operation, options.handlers, options.services, options.validateResponses === true, {
      identity,
      request,
      query: target.query,
      params,
      body,
    });
  } catch (error) {
    idempotency.complete(undefined);
    throw error;
  }
  idempotency.complete(isReplayable(answer) ? answer : undefined);
  return answer;
}

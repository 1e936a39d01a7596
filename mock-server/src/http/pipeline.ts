import type { RateLimiter } from '../core/rate-limiter.js';
import type { Variant } from '../core/variant.js';
import { authenticate } from './auth.js';
import { ApiError, internalError, notFound, testModeOnly } from './errors.js';
import { execute } from './execute.js';
import { checkIdempotency, isReplayable } from './idempotency-step.js';
import { readJsonBody } from './json-body.js';
import { requestTarget } from './request-url.js';
import type { HandlerMap, ServerServices } from './operation-handler.js';
import type { PreparedOperation } from './prepared-operation.js';
import { applyRateLimit } from './rate-limit-step.js';
import { jsonResponse, toResponse } from './response.js';

export interface PipelineOptions {
  handlers: HandlerMap;
  services: ServerServices;
  rateLimiter?: RateLimiter | undefined;
  exempt?: WeakSet<Request> | undefined;
  validateResponses?: boolean | undefined;
}

const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

/**
 * One routed request, in order: authentication (401), the caller's variant has the operation (404), due work,
 * rate limit (429), test mode only (400), JSON body (400), idempotency (replay or 400), then validation and the
 * handler. After answering, the deliveries of the events it caused are started, never awaited.
 */
export async function runOperation(
  options: PipelineOptions,
  request: Request,
  requestId: string,
  params: Record<string, string>,
  candidates: Partial<Record<Variant, PreparedOperation>>,
): Promise<Response> {
  const headers: [string, string][] = [];
  try {
    const identity = authenticate(request, options.services.directory);
    const { tenant, variant, key } = identity;
    const operation = candidates[variant];
    // A path of the other variant (e.g. /users with a Bearer key) does not exist for this caller.
    if (!operation) throw notFound();
    const { spec } = operation;
    // Work that fell due on a running clock is applied before the request reads state.
    tenant.scheduler.runDue();
    if (options.rateLimiter && !options.exempt?.has(request)) applyRateLimit(options.rateLimiter, key.id, tenant, headers);
    if (spec.testModeOnly && tenant.mode !== 'test') throw testModeOnly();

    const body = spec.requestBody ? await readJsonBody(request) : undefined;
    const target = requestTarget(request.url);
    const idempotencyKey = IDEMPOTENT_METHODS.has(spec.method) ? request.headers.get('idempotency-key') : null;
    const idempotency = await checkIdempotency(tenant, idempotencyKey, {
      variant,
      method: spec.method,
      path: target.path,
      body,
    });
    if (idempotency.kind === 'replay') return toResponse(idempotency.response, requestId, [...headers, ['Idempotent-Replayed', 'true']]);

    let answer;
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
    tenant.scheduler.runDue();
    return toResponse(answer, requestId, headers);
  } catch (error) {
    if (!(error instanceof ApiError)) console.error('[cardrail-mock] handler failed', error);
    const failure = error instanceof ApiError ? error : internalError();
    return toResponse(jsonResponse(failure.status, failure.toBody(), failure.headers), requestId, headers);
  }
}

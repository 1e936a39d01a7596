import { isPromise } from '../core/is-promise.js';
import type { FaultRegistry } from '../core/faults.js';
import type { RateLimiter } from '../core/rate-limiter.js';
import type { StoredResponse } from '../core/idempotency.js';
import type { Tenant } from '../core/tenant.js';
import { notFound, testModeOnly } from '../core/errors.js';
import type { Directory } from '../core/directory.js';
import { authenticate } from './auth.js';
import { requestBodyText } from './body-limit.js';
import { execute, type Execution } from './execute.js';
import { answerWithFault, takeFault } from './fault-step.js';
import { otherVariantHint } from './hints.js';
import { runOnce } from './idempotency-step.js';
import { parseJsonBody } from './json-body.js';
import { applyRateLimit } from './rate-limit-step.js';
import type { AdmittedRequest, Answer, RequestContext } from './request-context.js';

/** How every request of a mock runs: its handlers and services (Execution), limits and faults. */
export interface PipelineOptions extends Execution {
  rateLimiter?: RateLimiter | undefined;
  /** Requests the rate limiter does not count (fixture loading). */
  exempt?: WeakSet<object> | undefined;
  /** The largest request body read, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Faults a test injected (`mock.faults`): checked before anything of a request runs. */
  faults?: FaultRegistry | undefined;
}

const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

/**
 * One routed request, in order: a fault a test injected (fault-step.ts), authentication (401), the caller's variant
 * has the operation (404), the operation's validators (loaded on its first request), due work, rate limit (429), test
 * mode only (400), the body (413 past the size limit: nothing is read before the key is known), JSON body (400, also
 * past the nesting limit), idempotency (replay or 400), then validation and the handler (execute.ts). After
 * answering, the work that fell due (the first delivery attempts of the events it caused) is started, never awaited.
 *
 * Every step reads the request's context and adds to it; each step that may wait hands on through `continueWith`, so
 * a request with nothing to wait for (no body to arrive, no Idempotency-Key, its operation already loaded) is answered
 * synchronously: the Node transport then writes the answer in the same turn.
 */
export function runOperation(pipeline: PipelineOptions, context: RequestContext): Answer {
  const { faults } = pipeline;
  const rule = faults && faults.size > 0 ? takeFault(faults, context, pipeline.services.directory) : undefined;
  if (rule === undefined || faults === undefined) return runAuthenticated(pipeline, context);
  return answerWithFault(faults, rule, context, () => runAuthenticated(pipeline, context));
}

/**
 * Authenticates the request once, then runs the rest with the caller's organization held in memory (idle eviction
 * waits for a tenant answering a request). An error any step throws in this turn becomes the answer here.
 */
function runAuthenticated(pipeline: PipelineOptions, context: RequestContext): Answer {
  let admitted: AdmittedRequest;
  try {
    admitted = admit(context, pipeline.services.directory);
  } catch (error) {
    return context.fail(error);
  }
  const { tenant } = admitted.identity;
  tenant.requestsInFlight++;
  let answer: Answer;
  try {
    answer = admitted.operation.ready
      ? runReady(pipeline, admitted)
      : // The operation's first request waits for its validators, then goes on as every later one.
        continueWith(admitted.operation.load(), () => runReady(pipeline, admitted), context);
  } catch (error) {
    answer = context.fail(error);
  }
  if (!isPromise(answer)) {
    tenant.requestsInFlight--;
    return answer;
  }
  return answer.finally(() => {
    tenant.requestsInFlight--;
  });
}

/** The caller's identity (401 without a valid key) and the operation of its variant (404 on the other's path). */
function admit(context: RequestContext, directory: Directory): AdmittedRequest {
  const identity = authenticate(context.request, directory);
  const operation = context.operations[identity.variant];
  if (!operation) throw notFound(otherVariantHint(identity.variant, context.target.path));
  return context.admit(identity, operation);
}

/** From due work on, for a request whose caller is known and whose operation is loaded. */
function runReady(pipeline: PipelineOptions, context: AdmittedRequest): Answer {
  const { request, identity, operation } = context;
  const { tenant, key } = identity;
  runDueWork(tenant);
  if (pipeline.rateLimiter && !pipeline.exempt?.has(request)) {
    applyRateLimit(pipeline.rateLimiter, key.id, tenant, context.headers);
  }
  if (operation.spec.testModeOnly && tenant.mode !== 'test') throw testModeOnly();
  if (!operation.spec.requestBody) return respond(pipeline, context);
  return continueWith(
    requestBodyText(request, pipeline.maxBodyBytes),
    (text) => {
      context.body = parseJsonBody(request, text);
      return respond(pipeline, context);
    },
    context,
  );
}

/** Runs the operation (once per Idempotency-Key, when the request has one) and answers. */
function respond(pipeline: PipelineOptions, context: AdmittedRequest): Answer {
  const run = () => execute(pipeline, context);
  const key = IDEMPOTENT_METHODS.has(context.operation.spec.method) ? context.request.headers.get('idempotency-key') : null;
  return continueWith(key === null ? run() : runOnce(context, key, run), (response) => finish(context, response), context);
}

/** The answer, after the work that fell due while the request ran (e.g. the first attempts of its webhooks). */
function finish(context: AdmittedRequest, response: StoredResponse): Answer {
  runDueWork(context.identity.tenant);
  return context.wire(response);
}

/**
 * Work that fell due on a running clock is applied (before the request reads state, and again before it is answered),
 * and records past their retention are dropped (each once: nothing to do on most requests).
 */
function runDueWork(tenant: Tenant): void {
  tenant.scheduler.runDue();
  tenant.prune();
}

/**
 * Goes on with `next` in this turn when `value` is at hand, else once it arrives: the one place where the pipeline
 * answers synchronously or waits. An error of a step that waited becomes its answer here (`fail`), so the promise
 * returned never rejects.
 */
function continueWith<T>(value: T | Promise<T>, next: (value: T) => Answer, context: RequestContext): Answer {
  if (!isPromise(value)) return next(value);
  return value.then(
    (ready) => {
      try {
        return next(ready);
      } catch (error) {
        return context.fail(error);
      }
    },
    (error: unknown) => context.fail(error),
  );
}

import { HttpError } from '../core/errors.js';
import { ConnectionDropped, type FaultRegistry, type FaultRule, type FaultStatus } from '../core/faults.js';
import type { Directory } from '../core/directory.js';
import { keyDigest } from '../core/key-digest.js';
import type { ApiRequest } from '../operations/api-request.js';
import { presentedKey } from './auth.js';
import type { RequestContext } from './request-context.js';
import { jsonResponse, toWire, type WireResponse } from './response.js';

/** The header that marks an answer a fault changed (its id and what it did), for tests and the request log. */
export const FAULT_HEADER = 'Cardrail-Mock-Fault';

/**
 * The fault that takes this request, if any, decided before anything of the request runs (no tenant is created, no
 * rate limit counted): the first registered fault whose scope matches and whose draw hits.
 */
export function takeFault(faults: FaultRegistry, context: RequestContext, directory: Directory): FaultRule | undefined {
  const { request, target } = context;
  const presented = presentedKey(request);
  const operation = context.operations[presented?.variant ?? 'customer'];
  const path = target.path.startsWith('/v1/') ? target.path.slice(3) : target.path;
  return faults.take({
    operationId: operation?.spec.operationId,
    template: operation?.spec.path ?? '',
    path,
    keyDigest: () => (presented === undefined || presented.key.length > 256 ? undefined : keyDigest(presented.key)),
    tenantOfDigest: (digest) => directory.knownKey(digest),
  });
}

/**
 * Answers a request a fault took: after its delay, the fault's error, a dropped connection or no answer at all; or,
 * `afterCommit`, the request runs (its changes and its Idempotency-Key's answer are kept) and then its answer is lost.
 * A fault with only a delay lets the request run after it.
 */
export async function answerWithFault(
  faults: FaultRegistry,
  rule: FaultRule,
  context: RequestContext,
  run: () => WireResponse | Promise<WireResponse>,
): Promise<WireResponse> {
  if (rule.delayMs > 0) await sleep(rule.delayMs);
  if (rule.hang) return hold(faults, rule, context.request);
  const fails = rule.status !== undefined || rule.drop;
  if (!fails || rule.afterCommit) {
    const answer = await run();
    if (!fails) return marked(answer, rule);
  }
  if (rule.drop) throw new ConnectionDropped(rule.id);
  return marked(toWire(faultAnswer(rule, rule.status as FaultStatus), context.requestId), rule);
}

/** The error answer of a fault, in the API's error format, with the headers the spec documents for its status. */
function faultAnswer(rule: FaultRule, status: FaultStatus) {
  const details = { fault: rule.id };
  const retryAfter = String(rule.retryAfterSeconds);
  switch (status) {
    case 429: {
      const error = new HttpError(429, 'rate_limited', 'Rate limit exceeded (a fault injected by the test).', details);
      return jsonResponse(429, error.toBody(), {
        'Retry-After': retryAfter,
        'RateLimit-Limit': '100',
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': retryAfter,
      });
    }
    case 500:
      return jsonResponse(
        500,
        new HttpError(500, 'internal_error', 'An unexpected error occurred (a fault injected by the test).', details).toBody(),
      );
    case 502:
      return jsonResponse(
        502,
        new HttpError(
          502,
          'bad_gateway',
          'An upstream system failed; retry the request (a fault injected by the test).',
          details,
        ).toBody(),
      );
    case 503: {
      const message = 'The service is unavailable; retry after the Retry-After delay (a fault injected by the test).';
      return jsonResponse(503, new HttpError(503, 'service_unavailable', message, details).toBody(), {
        'Retry-After': retryAfter,
      });
    }
  }
}

function marked(answer: WireResponse, rule: FaultRule): WireResponse {
  const parts = [rule.id];
  if (rule.status !== undefined) parts.push(`status=${rule.status}`);
  if (rule.delayMs > 0) parts.push(`delay-ms=${rule.delayMs}`);
  if (rule.afterCommit) parts.push('after-commit');
  answer.headers[FAULT_HEADER] = parts.join('; ');
  return answer;
}

/** Never answers: held until the client gives up (its abort signal) or the fault is cleared, then dropped. */
function hold(faults: FaultRegistry, rule: FaultRule, request: ApiRequest): Promise<WireResponse> {
  return new Promise((_resolve, reject) => {
    const signal = request.signal;
    const drop = () => {
      release();
      signal?.removeEventListener('abort', drop);
      reject(new ConnectionDropped(rule.id));
    };
    const release = faults.hold({ ruleId: rule.id, release: drop });
    if (signal?.aborted) drop();
    else signal?.addEventListener('abort', drop, { once: true });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

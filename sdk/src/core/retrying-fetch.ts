import { ConnectionError, RequestAbortedError, TimeoutError } from '../errors.js';
import { generateIdempotencyKey, needsIdempotencyKey } from './idempotency-key.js';
import type { Logger } from './logger.js';
import { redactHeaders } from './redact.js';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { sleep } from './sleep.js';

/** A `fetch` that takes a `Request`: `globalThis.fetch`, or e.g. `(request) => mock.handle(request)`. */
export type FetchLike = (input: Request) => Promise<Response>;

/** How one call is attempted: the client's options, overridden by the call's. */
export interface AttemptPolicy {
  readonly maxRetries: number;
  readonly timeoutMs: number;
  /** Fixed key for this call; otherwise the request's own header, otherwise a generated one. */
  readonly idempotencyKey?: string | undefined;
}

/** The client's `fetch`: sends a request under a policy, retrying as the policy allows. */
export type RetryingFetch = (request: Request, policy: AttemptPolicy) => Promise<Response>;

export interface RetryingFetchConfig {
  /** Called for every attempt, so a `fetch` patched after the client was created (MSW) is still used. */
  resolveFetch: () => FetchLike;
  logger: Logger;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Built once per client: the resource methods call it with each call's policy, and the openapi-fetch client (`raw`)
 * with the client's. Retries live here rather than in openapi-fetch middleware because openapi-fetch does not run
 * middleware for a request sent a second time; each attempt gets a fresh Request (a body stream can be read only once).
 */
export function createRetryingFetch(config: RetryingFetchConfig): RetryingFetch {
  return async (request, policy) => {
    const callerSignal = request.signal;
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    if (policy.idempotencyKey !== undefined) headers.set('Idempotency-Key', policy.idempotencyKey);
    else if (needsIdempotencyKey(request.method) && !headers.has('Idempotency-Key')) {
      headers.set('Idempotency-Key', generateIdempotencyKey());
    }
    const label = `${request.method} ${request.url}`;

    for (let attempt = 0; ; attempt += 1) {
      const retriesLeft = policy.maxRetries - attempt;
      if (callerSignal.aborted) throw aborted(callerSignal);
      config.logger.debug(`cardrail: ${label} attempt ${attempt + 1}`, { headers: redactHeaders(headers) });

      let failure: ConnectionError;
      try {
        const init: RequestInit = { method: request.method, headers, body, redirect: request.redirect };
        const buildRequest = (signal: AbortSignal) => new Request(request.url, { ...init, signal });
        const response = await attemptOnce(config.resolveFetch, policy.timeoutMs, buildRequest, callerSignal);
        if (!isRetryableStatus(response.status) || retriesLeft <= 0) {
          config.logger.debug(`cardrail: ${label} -> ${response.status}`, { requestId: response.headers.get('request-id') });
          return response;
        }
        const delay = retryDelayMs(attempt, response.headers);
        config.logger.info(`cardrail: ${label} -> ${response.status}; retrying in ${Math.round(delay)} ms (${retriesLeft} left)`);
        await sleepOrAbort(delay, callerSignal);
        continue;
      } catch (error) {
        if (error instanceof RequestAbortedError) throw error;
        if (callerSignal.aborted) throw aborted(callerSignal, error);
        failure = error instanceof ConnectionError ? error : connectionError(error, request.url);
      }
      if (retriesLeft <= 0) {
        config.logger.warn(`cardrail: ${label} failed: ${failure.message}`);
        throw failure;
      }
      const delay = retryDelayMs(attempt, undefined);
      config.logger.info(
        `cardrail: ${label} failed (${failure.message}); retrying in ${Math.round(delay)} ms (${retriesLeft} left)`,
      );
      await sleepOrAbort(delay, callerSignal);
    }
  };
}

/** One attempt, bounded by the timeout from sending to the last byte of the body. */
async function attemptOnce(
  resolveFetch: () => FetchLike,
  timeoutMs: number,
  buildRequest: (signal: AbortSignal) => Request,
  callerSignal: AbortSignal,
): Promise<Response> {
  const controller = new AbortController();
  const timeout = new TimeoutError({ message: `Request timed out after ${timeoutMs} ms.` });
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal.reason);
  callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const response = await resolveFetch()(buildRequest(controller.signal));
    // Reading the body here keeps it inside the timeout and lets a connection dropped mid-body be retried.
    const bytes = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason === timeout) throw timeout;
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal.removeEventListener('abort', onCallerAbort);
  }
}

async function sleepOrAbort(ms: number, callerSignal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, callerSignal);
  } catch (reason) {
    throw aborted(callerSignal, reason);
  }
}

function aborted(signal: AbortSignal, cause: unknown = signal.reason): RequestAbortedError {
  return new RequestAbortedError({ cause });
}

/**
 * A network failure as ConnectionError naming the URL and the system's code: Node's fetch throws `TypeError: fetch
 * failed` with the code (`ECONNREFUSED`, `ENOTFOUND`...) on its `cause`, which a message of its own would hide.
 */
function connectionError(cause: unknown, url: string): ConnectionError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const systemCode = systemCodeOf(cause);
  const advice = systemCode === undefined ? '' : (CONNECTION_ADVICE[systemCode] ?? '');
  return new ConnectionError({
    message: `Connection error: ${reason} (${systemCode === undefined ? '' : `${systemCode}, `}${url})${advice}`,
    details: systemCode === undefined ? { url } : { url, systemCode },
    cause,
  });
}

/** What the usual codes mean for a client of the API. */
const CONNECTION_ADVICE: Record<string, string> = {
  ECONNREFUSED: ': nothing listens there; check the baseUrl, or start the server (the local mock: npx cardrail-mock)',
  ENOTFOUND: ': the host name does not resolve; check the baseUrl',
  ECONNRESET: ': the server closed the connection',
  ETIMEDOUT: ': the connection timed out',
  EAI_AGAIN: ': the host name could not be resolved now (DNS); retry, or check the network',
};

/** The system error code on an error or its causes (`ECONNREFUSED`), at most a few levels down. */
function systemCodeOf(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    const nested = (current as { errors?: unknown }).errors;
    // undici reports a refused dual-stack connection as an AggregateError of one error per address.
    current = Array.isArray(nested) && nested.length > 0 ? nested[0] : (current as { cause?: unknown }).cause;
  }
  return undefined;
}

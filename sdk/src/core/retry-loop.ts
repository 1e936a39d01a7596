import { ConnectionError, RequestAbortedError, TimeoutError } from '../errors.js';
import { connectionError } from './connection-error.js';
import type { ClientLogger } from './logger.js';
import { redactHeaders } from './redact.js';
import { isRetryableStatus, retryDelayMs } from './retry-policy.js';
import { sleep } from './sleep.js';

/** How one call is attempted: the client's options, overridden by the call's. */
export interface AttemptPolicy {
  readonly maxRetries: number;
  readonly timeoutMs: number;
  /** Fixed key for this call; otherwise the request's own header, otherwise a generated one. */
  readonly idempotencyKey?: string | undefined;
}

/** One call as the loop sends it: what it logs, how often it tries, and the caller's signal. */
export interface RetriedCall {
  readonly method: string;
  readonly url: string;
  /** The headers every attempt sends (names in lower case), for debug lines (redacted there). */
  readonly headers: Readonly<Record<string, string>>;
  readonly policy: AttemptPolicy;
  /** Aborting ends the call at once with RequestAbortedError; no retry follows. */
  readonly signal: AbortSignal | undefined;
  readonly logger: ClientLogger;
}

/** An answer with its body, read within the attempt that received it. */
export interface Received<Body> {
  readonly response: Response;
  readonly body: Body;
}

/** Sends one attempt (a fresh Request each time, aborted by `signal`) and reads its answer's body. */
export type Attempt<Body> = (signal: AbortSignal) => Promise<Received<Body>>;

/**
 * Sends a call: each attempt bounded by the timeout from sending to the last byte of the body (so a connection dropped
 * mid-body is retried too), retried on a network failure, a timeout or a retryable status while the policy allows.
 */
export async function sendWithRetries<Body>(call: RetriedCall, attempt: Attempt<Body>): Promise<Received<Body>> {
  const { logger, signal } = call;
  const label = `${call.method} ${call.url}`;
  for (let attempted = 0; ; attempted += 1) {
    const retriesLeft = call.policy.maxRetries - attempted;
    if (signal?.aborted) throw aborted(signal);
    if (logger.debugging) {
      logger.debug(`cardrail: ${label} attempt ${attempted + 1}`, { headers: redactHeaders(call.headers) });
    }
    let failure: ConnectionError;
    try {
      const received = await attemptWithin(call.policy.timeoutMs, signal, attempt);
      const { response } = received;
      if (!isRetryableStatus(response.status) || retriesLeft <= 0) {
        if (logger.debugging) {
          logger.debug(`cardrail: ${label} -> ${response.status}`, { requestId: response.headers.get('request-id') });
        }
        return received;
      }
      const delay = retryDelayMs(attempted, response.headers);
      logger.info(`cardrail: ${label} -> ${response.status}; retrying in ${Math.round(delay)} ms (${retriesLeft} left)`);
      await sleepOrAbort(delay, signal);
      continue;
    } catch (error) {
      if (error instanceof RequestAbortedError) throw error;
      if (signal?.aborted) throw aborted(signal, error);
      failure = error instanceof ConnectionError ? error : connectionError(error, call.url);
    }
    if (retriesLeft <= 0) {
      logger.warn(`cardrail: ${label} failed: ${failure.message}`);
      throw failure;
    }
    const delay = retryDelayMs(attempted, undefined);
    logger.info(`cardrail: ${label} failed (${failure.message}); retrying in ${Math.round(delay)} ms (${retriesLeft} left)`);
    await sleepOrAbort(delay, signal);
  }
}

/** One attempt under its timeout and the caller's signal; the TimeoutError is made only when the time runs out. */
async function attemptWithin<Body>(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  attempt: Attempt<Body>,
): Promise<Received<Body>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    return await attempt(controller.signal);
  } catch (error) {
    if (timedOut) throw new TimeoutError({ message: `Request timed out after ${timeoutMs} ms.` });
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

async function sleepOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, signal);
  } catch (reason) {
    throw aborted(signal, reason);
  }
}

function aborted(signal: AbortSignal | undefined, cause: unknown = signal?.reason): RequestAbortedError {
  return new RequestAbortedError({ cause });
}

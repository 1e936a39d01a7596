import { ConnectionError, RequestAbortedError, TimeoutError } from '../errors.js';
import type { FetchLike } from './client-options.js';
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

/** What a client's calls go out through. */
export interface Transport {
  /** Looked up on every attempt, so that a `fetch` patched after the client was made (MSW) is used. */
  readonly fetch: () => FetchLike;
  readonly logger: ClientLogger;
}

/** One call: the same method, URL, headers and body on every attempt, and how often to try. */
export interface RetriedCall {
  readonly method: string;
  readonly url: string;
  /** Names in lower case (so debug lines redact them by name). */
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised once, sent again as it is. */
  readonly body?: string | ArrayBuffer | undefined;
  readonly redirect?: RequestRedirect | undefined;
  readonly policy: AttemptPolicy;
  /** Aborting ends the call at once with RequestAbortedError; no retry follows. */
  readonly signal: AbortSignal | undefined;
}

/** An answer with its body, read within the attempt that received it. */
export interface Received<Body> {
  readonly response: Response;
  readonly body: Body;
}

/**
 * Sends a call, a fresh Request per attempt, and reads the answer's body with `read`: each attempt is bounded by the
 * timeout from sending to the last byte of the body (so a connection dropped mid-body is retried too), and retried
 * on a network failure, a timeout or a retryable status while the policy allows.
 */
export async function sendWithRetries<Body>(
  transport: Transport,
  call: RetriedCall,
  read: (response: Response) => Promise<Body>,
): Promise<Received<Body>> {
  const { logger } = transport;
  const { signal } = call;
  const label = `${call.method} ${call.url}`;
  for (let attempted = 0; ; attempted += 1) {
    const retriesLeft = call.policy.maxRetries - attempted;
    if (signal?.aborted) throw aborted(signal);
    if (logger.debugging) {
      logger.debug(`cardrail: ${label} attempt ${attempted + 1}`, { headers: redactHeaders(call.headers) });
    }
    let failure: ConnectionError;
    try {
      const received = await attempt(transport, call, read);
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
async function attempt<Body>(
  transport: Transport,
  call: RetriedCall,
  read: (response: Response) => Promise<Body>,
): Promise<Received<Body>> {
  const { method, url, headers, body, redirect, signal: callerSignal } = call;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.policy.timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const request = new Request(url, { method, headers, body, redirect, signal: controller.signal });
    const response = await transport.fetch()(request);
    return { response, body: await read(response) };
  } catch (error) {
    if (timedOut) throw new TimeoutError({ message: `Request timed out after ${call.policy.timeoutMs} ms.` });
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

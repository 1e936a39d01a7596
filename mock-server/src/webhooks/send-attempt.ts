/** The `fetch` webhook deliveries are sent with (`MockServerOptions.fetch`). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** What one attempt came to: never an exception. */
export interface AttemptOutcome {
  attemptedAt: number;
  responseStatus: number | null;
  /** A network error, a timeout or a redirect; null otherwise. */
  error: string | null;
  durationMs: number;
}

/** Any 2xx answer. */
export function succeeded(outcome: AttemptOutcome): boolean {
  return outcome.responseStatus !== null && outcome.responseStatus >= 200 && outcome.responseStatus < 300;
}

/**
 * POSTs one signed delivery and answers its outcome: a redirect is not followed (a failure), no answer within
 * `timeoutMs` is a failure, the response body is read and dropped (which frees the connection). The duration counts
 * from `started`, the moment the request was ready.
 */
export async function sendAttempt(request: {
  fetch: FetchFunction;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  attemptedAt: number;
  started: number;
}): Promise<AttemptOutcome> {
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const response = await request.fetch(request.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Cardrail-Webhooks/1.0', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    responseStatus = response.status;
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 300 && response.status < 400) error = 'redirect responses are not followed';
  } catch (cause) {
    error = describeFetchError(cause, request.timeoutMs);
  }
  return {
    attemptedAt: request.attemptedAt,
    responseStatus,
    error,
    durationMs: Math.max(0, Math.round(performance.now() - request.started)),
  };
}

/** The origin an attempt counts against (scheme, host and port). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function describeFetchError(cause: unknown, timeoutMs: number): string {
  if (cause instanceof Error) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return `no response within ${timeoutMs} ms`;
    // fetch reports the system error (ECONNREFUSED, ...) as the `cause` of its TypeError.
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = inner instanceof Error ? ((inner as Error & { code?: string }).code ?? inner.message) : undefined;
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

/**
 * The API's error answers (docs/errors.md): 401 and 404 keep the string forms `{"error":"unauthorized"}` and
 * `{"error":"not_found"}`; everything else is `{error:{code,message,details}}`. The domain, the engine and the
 * handlers throw HttpError; the HTTP layer renders it. (Named apart from the SDK's `APIError`, the error a client
 * receives: this one is what a handler throws to make the mock answer with an error.)
 */
export class HttpError extends Error {
  /**
   * @param status - HTTP status of the answer.
   * @param code - Machine-readable reason, such as `invalid_state`.
   * @param message - Human-readable description.
   * @param details - Structured details (such as `field`, a JSON pointer into the request), or null.
   * @param headers - Extra response headers, such as `Retry-After`.
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The JSON body of the answer: the string form for 401 and 404, `{error:{code,message,details}}` otherwise. */
  toBody(): unknown {
    if (this.status === 401 || this.status === 404) return { error: this.code };
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/**
 * The mock's extension header on a refusal whose body the service defines (401, 404): its guess at the likely cause
 * and what to do, in plain ASCII. The body stays exactly the service's (docs/errors.md#hints).
 */
export const HINT_HEADER = 'Cardrail-Hint';

/** The headers of an answer that carries a hint (none without one). */
function hinted(hint: string | undefined): Record<string, string> {
  return hint === undefined ? {} : { [HINT_HEADER]: hint };
}

/** `hint`, when given, is sent in the Cardrail-Hint header: why the key was refused, never the key itself. */
export function unauthorized(hint?: string): HttpError {
  return new HttpError(401, 'unauthorized', 'Missing, malformed, unknown or revoked API key.', null, hinted(hint));
}

/**
 * Also the answer for an object of another organization or mode: ids never leak (never 403). `hint`, when given, is
 * sent in the Cardrail-Hint header.
 */
export function notFound(hint?: string): HttpError {
  return new HttpError(404, 'not_found', 'The resource does not exist.', null, hinted(hint));
}

/**
 * A request the spec or a rule refuses. `field` is a JSON pointer into the request (`/body/email`,
 * `/query/limit`, `/path/cardId`, `/header/Idempotency-Key`).
 */
export function invalidRequest(field: string, reason: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, 'invalid_request', `${field.replace(/^\//, '')}: ${reason}`, { field, reason, ...extra });
}

/** A well-formed request that the object's current state forbids (e.g. activating an active agent). */
export function invalidState(message: string, details: Record<string, unknown> | null = null): HttpError {
  return new HttpError(400, 'invalid_state', message, details);
}

export function testModeOnly(): HttpError {
  return new HttpError(400, 'test_mode_only', 'This operation is available in test mode only (use an sk_test_ key).');
}

export function notImplemented(operationId: string): HttpError {
  return new HttpError(501, 'not_implemented', `The mock does not implement ${operationId} yet.`, { operationId });
}

/** Every 500 the mock answers: a fault of the mock, never of the request. */
export function internalError(): HttpError {
  return new HttpError(500, 'internal_error', 'An unexpected error occurred.');
}

/** A 500 of `validateResponses`: the operation's answer does not match its spec (a fault of a handler). */
export function responseMismatch(operationId: string, mismatch: string): HttpError {
  return new HttpError(500, 'internal_error', 'Response does not match the spec.', { operationId, mismatch });
}

/** How an answer names a `--state <dir>` store (SQLite). */
export const STATE_DIRECTORY = 'the state directory';

/**
 * The durable store could not save what a request changed (a full disk, an I/O error): nothing of it was applied,
 * and a retry may succeed once the store can write again (docs/errors.md).
 */
export function stateNotSaved(reason: string, store = STATE_DIRECTORY): HttpError {
  return new HttpError(
    503,
    'state_not_saved',
    `The change could not be saved to ${store}, so nothing was applied; retry once the store can write again.`,
    { reason },
    { 'Retry-After': '1' },
  );
}

/**
 * The state could not be reached or saved while answering (a shared store's database went away, ended the
 * connection, refused or lost a commit, or holds damage): thrown by the store where it happens, and answered
 * 503 `state_not_saved` wherever it reaches the HTTP layer (`refusalOf`), never 500. Not an HttpError: it is no
 * answer a handler gives, so the steps that remember answers (idempotency) let it pass, and nothing is replayed.
 */
export class StateUnavailable extends Error {
  constructor(
    /** What happened, in the store's words: `details.reason` of the answer. */
    readonly reason: string,
    /** The store, as the answer names it: `the database at 127.0.0.1:5432/cardrail`. */
    readonly where: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = 'StateUnavailable';
  }

  /** `error` as a StateUnavailable of `where` (itself when it is one already). */
  static of(error: unknown, where: string): StateUnavailable {
    if (error instanceof StateUnavailable) return error;
    return new StateUnavailable(error instanceof Error ? error.message : String(error), where, { cause: error });
  }
}

/**
 * The answer an error thrown while answering stands for: an HttpError is its own, a StateUnavailable is 503
 * `state_not_saved`; undefined for anything else (a fault of the mock: 500).
 */
export function refusalOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof StateUnavailable) return stateNotSaved(error.reason, error.where);
  return undefined;
}

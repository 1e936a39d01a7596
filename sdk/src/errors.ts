/** Fields every Cardrail error carries, whatever produced it. */
export interface CardrailErrorInit {
  /** Human-readable description; says how to fix the problem where it can. */
  message: string;
  /** Machine-readable reason: the API's error code, or an SDK code such as `timeout`. */
  code: string;
  /** HTTP status of the response, when there was one. */
  status?: number | undefined;
  /** Structured details from the API (such as `field`, a JSON pointer to the invalid input), or null. */
  details?: Record<string, unknown> | null | undefined;
  /** Value of the `Request-Id` response header. */
  requestId?: string | undefined;
  /** Headers of the response, when there was one. */
  headers?: Headers | undefined;
  /** The underlying error (a network failure, an abort), when there is one. */
  cause?: unknown;
}

/** Base class of everything the SDK throws, so one `instanceof` check catches them all. */
export class CardrailError extends Error {
  /** The class name, so logs and `String(error)` say which error it is. */
  override readonly name: string = 'CardrailError';
  // Declared, not defined: the constructor sets each one, and field definitions would only repeat them in every
  // bundle (the browser bundle of the webhooks entry is kept under 3 kB).
  /** HTTP status of the response, when there was one. */
  declare readonly status: number | undefined;
  /** Machine-readable reason: the API's error code, or an SDK code such as `timeout`. */
  declare readonly code: string;
  /** Structured details from the API (such as `field`, a JSON pointer to the invalid input), or null. */
  declare readonly details: Record<string, unknown> | null;
  /** Value of the `Request-Id` response header; quote it when contacting support. */
  declare readonly requestId: string | undefined;
  /** Headers of the response, when there was one (e.g. `Retry-After` on a 429). */
  declare readonly headers: Headers | undefined;

  constructor(init: CardrailErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? null;
    this.requestId = init.requestId;
    this.headers = init.headers;
  }
}

/** The API answered, but with an error status (subclasses narrow it by status) or with a body the SDK cannot read. */
export class APIError extends CardrailError {
  override readonly name: string = 'APIError';
  declare readonly status: number;
}

/** 400: the request is invalid (`invalid_request` with `details.field`, `idempotency_key_reused`, ...). */
export class BadRequestError extends APIError {
  override readonly name: string = 'BadRequestError';
}
/** 401: the API key is missing, malformed, unknown or revoked. */
export class AuthenticationError extends APIError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the key may not do this. */
export class PermissionDeniedError extends APIError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: no such object in this organization and mode. */
export class NotFoundError extends APIError {
  override readonly name: string = 'NotFoundError';
}
/** 409: the request conflicts with another in progress (retried automatically). */
export class ConflictError extends APIError {
  override readonly name: string = 'ConflictError';
}
/** 422: the request is well formed but cannot be carried out. */
export class UnprocessableEntityError extends APIError {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 429: too many requests; retried automatically after `Retry-After`. */
export class RateLimitError extends APIError {
  override readonly name: string = 'RateLimitError';
}
/** 5xx: the API failed (retried automatically, except 501). */
export class InternalServerError extends APIError {
  override readonly name: string = 'InternalServerError';
}

/**
 * A success status whose body is not JSON (a proxy's HTML page, a truncated body). `status` is the 2xx received; the
 * request may have taken effect, so it is not retried: repeat it with the same `idempotencyKey` to be safe.
 */
export class InvalidResponseError extends APIError {
  override readonly name: string = 'InvalidResponseError';
}

/** No response arrived (DNS, refused connection, reset...). Retried automatically. */
export class ConnectionError extends CardrailError {
  override readonly name: string = 'ConnectionError';
  constructor(init: Partial<CardrailErrorInit> = {}) {
    super({ message: 'Connection error: the request did not reach the Cardrail API.', code: 'connection_error', ...init });
  }
}

/** An attempt ran past `timeoutMs`. A subclass of ConnectionError because it is retried the same way. */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
  constructor(init: Partial<CardrailErrorInit> = {}) {
    super({ message: 'Request timed out.', code: 'timeout', ...init });
  }
}

/** The caller's AbortSignal fired. Never retried. */
export class RequestAbortedError extends CardrailError {
  override readonly name: string = 'RequestAbortedError';
  constructor(init: Partial<CardrailErrorInit> = {}) {
    super({ message: 'Request was aborted by the caller.', code: 'request_aborted', ...init });
  }
}

/** Why a webhook could not be verified; one code per distinct failure. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'missing_signature'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'conflicting_headers'
  | 'invalid_payload'
  | 'invalid_secret'
  | 'invalid_json';

/** A webhook delivery failed verification; `code` says why (see WebhookVerificationErrorCode). */
export class WebhookVerificationError extends CardrailError {
  override readonly name: string = 'WebhookVerificationError';
  declare readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string, details?: Record<string, unknown>) {
    super({ message, code, details });
  }
}

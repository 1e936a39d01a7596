import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  type CardrailErrorInit,
} from '../errors.js';
import { redactText } from './redact.js';

const REQUEST_ID_HEADER = 'Request-Id';

export function requestIdOf(response: Response): string | undefined {
  return response.headers.get(REQUEST_ID_HEADER) ?? undefined;
}

interface ParsedErrorBody {
  code: string;
  message: string;
  details: Record<string, unknown> | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The API's error bodies have two forms (`ErrorBody` in the spec): a bare code, `{error: "not_found"}` (401, 404), and
 * `{error: {code, message, details}}` (everything else). Both end up in the same fields so callers branch on `code`
 * alone. Anything else (a proxy's HTML error page, an empty body) still yields an error.
 */
function parseErrorBody(body: unknown, status: number, statusText: string): ParsedErrorBody {
  const error = isRecord(body) ? body.error : undefined;
  if (typeof error === 'string' && error !== '') {
    return { code: error, message: `${status} ${error.replaceAll('_', ' ')}`, details: null };
  }
  if (isRecord(error) && typeof error.code === 'string') {
    const message = typeof error.message === 'string' && error.message !== '' ? error.message : error.code;
    return {
      code: error.code,
      message: `${status} ${message}`,
      details: isRecord(error.details) ? error.details : null,
    };
  }
  const fallback =
    typeof body === 'string' && body.trim() !== '' ? redactText(body.trim().slice(0, 200)) : statusText || 'no error body';
  return { code: 'api_error', message: `${status} ${fallback}`, details: null };
}

type ErrorClass = new (init: CardrailErrorInit) => APIError;

function classForStatus(status: number): ErrorClass {
  switch (status) {
    case 400:
      return BadRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionDeniedError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? InternalServerError : APIError;
  }
}

/**
 * The local mock's guess at the cause of a 401 or 404 (the `Cardrail-Hint` header: a key of the wrong format, the other
 * variant's header, a base URL without `/v1`), added to the message. Capped: it is read from a response.
 */
function hintOf(response: Response): string | undefined {
  const hint = response.headers.get('Cardrail-Hint')?.trim();
  return hint ? redactText(hint.slice(0, 1024)) : undefined;
}

export function errorFromResponse(response: Response, body: unknown): APIError {
  const parsed = parseErrorBody(body, response.status, response.statusText);
  const hint = hintOf(response);
  if (hint !== undefined) parsed.message = `${parsed.message}: ${hint}`;
  const ErrorForStatus = classForStatus(response.status);
  return new ErrorForStatus({ ...parsed, status: response.status, requestId: requestIdOf(response), headers: response.headers });
}

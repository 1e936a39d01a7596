import { CardrailError } from '../errors.js';
import type { HttpMethod } from './operation-types.js';

/** An operation's address: its method and its path template, as the spec writes them (`/cards/{cardId}`). */
export interface Endpoint {
  readonly method: HttpMethod;
  readonly path: string;
}

/** What one call of an operation fills in. */
export interface CallParams {
  /** A value for each `{name}` of the path. */
  path?: Record<string, string> | undefined;
  query?: Record<string, unknown> | undefined;
  /** Sent as JSON when not undefined. */
  body?: unknown;
}

/** openapi-fetch's schema of any path and method: what the resource declarations send, typed by their own lookups. */
export type AnyPaths = Record<
  string,
  Record<
    HttpMethod,
    {
      parameters: { query?: Record<string, unknown>; path?: Record<string, string> };
      requestBody?: { content: { 'application/json': unknown } };
      responses: { default: { content: { 'application/json': unknown } } };
    }
  >
>;

/**
 * An empty, `.` or `..` id would send the request to another resource (`cards.retrieve('')` is `GET /cards/`, the card
 * list), so it is refused before anything is sent, as is a non-string id from JavaScript.
 */
export function invalidPathParameter(path: Record<string, string> | undefined): CardrailError | undefined {
  for (const [name, value] of Object.entries(path ?? {})) {
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      return new CardrailError({
        code: 'invalid_path_parameter',
        message: `${name} must be a non-empty id, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}.`,
      });
    }
  }
  return undefined;
}

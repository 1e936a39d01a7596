import type { StoredResponse } from '../core/idempotency.js';

/** An answer as the transports write it: status, header object and the JSON text. */
export interface WireResponse {
  /** HTTP status. */
  status: number;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  /** The JSON body as text. */
  body: string;
}

const JSON_HEADERS: StoredResponse['headers'] = [['Content-Type', 'application/json']];

/** A JSON response in the stored (replayable) form; `text` is the body's JSON when it is already made. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
  text?: string | undefined,
): StoredResponse {
  return {
    status,
    // Most answers add no header: they share one list (stored responses are never changed).
    headers: headers === undefined ? JSON_HEADERS : [...JSON_HEADERS, ...Object.entries(headers)],
    body: text ?? JSON.stringify(body),
  };
}

/** The answer to send: the stored response with the per-request headers (Request-Id, rate limits, replay). */
export function toWire(
  stored: StoredResponse,
  requestId: string,
  extraHeaders?: readonly (readonly [string, string])[],
): WireResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of stored.headers) headers[name] = value;
  if (extraHeaders !== undefined) for (const [name, value] of extraHeaders) headers[name] = value;
  headers['Request-Id'] = requestId;
  return { status: stored.status, headers, body: stored.body };
}

/** The web Response of an answer, for fetch-style callers (`handle`, MSW). HEAD answers carry no body. */
export function toWebResponse(wire: WireResponse, method: string): Response {
  return new Response(method === 'HEAD' ? null : wire.body, { status: wire.status, headers: wire.headers });
}

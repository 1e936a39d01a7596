import type { StoredResponse } from '../core/idempotency.js';

/** A JSON response in the stored (replayable) form. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return {
    status,
    headers: [['Content-Type', 'application/json'], ...Object.entries(headers)],
    body: JSON.stringify(body),
  };
}

/**
 * The one Response built per request: a string body and a plain header object. That shape is what lets
 * @hono/node-server write the answer straight to the socket without a stream or a Headers copy, so it is built
 * once, with every header (the Request-Id included), instead of being copied by each layer that adds one.
 */
export function toResponse(
  stored: StoredResponse,
  requestId: string,
  extraHeaders: readonly (readonly [string, string])[] = [],
): Response {
  const headers: Record<string, string> = {};
  for (const [name, value] of stored.headers) headers[name] = value;
  for (const [name, value] of extraHeaders) headers[name] = value;
  headers['Request-Id'] = requestId;
  return new Response(stored.body, { status: stored.status, headers });
}

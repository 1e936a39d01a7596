import type { StoredResponse } from '../core/idempotency.js';

/** A JSON response in the stored (replayable) form. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return {
    status,
    headers: [['Content-Type', 'application/json'], ...Object.entries(headers)],
    body: JSON.stringify(body),
  };
}

export function toResponse(stored: StoredResponse, extraHeaders: [string, string][] = []): Response {
  const headers = new Headers(stored.headers);
  for (const [name, value] of extraHeaders) headers.set(name, value);
  return new Response(stored.body, { status: stored.status, headers });
}

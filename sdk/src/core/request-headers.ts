import { generateIdempotencyKey, needsIdempotencyKey } from './idempotency-key.js';

/** Header values as a caller may give them: `null` removes a header given before, `undefined` leaves it. */
export type HeaderValues = Readonly<Record<string, string | null | undefined>>;

/** Header names are case-insensitive: lower case, so that a later `x-team` replaces an earlier `X-Team`. */
export function mergeHeaders(into: Record<string, string>, headers: HeaderValues | undefined): Record<string, string> {
  for (const name in headers) {
    const value = headers[name];
    if (value === null) delete into[name.toLowerCase()];
    else if (value !== undefined) into[name.toLowerCase()] = value;
  }
  return into;
}

/**
 * The headers of one call, the same on every attempt: the client's, the call's over them, `Content-Type` for a JSON
 * body unless given, and on a POST or PATCH an `Idempotency-Key`: the call's option, else the caller's header, else a
 * generated one.
 */
export function callHeaders(
  base: Readonly<Record<string, string>>,
  method: string,
  call: { headers?: HeaderValues | undefined; idempotencyKey?: string | undefined; hasBody: boolean },
): Record<string, string> {
  const headers = { ...base };
  if (call.hasBody) headers['content-type'] = 'application/json';
  mergeHeaders(headers, call.headers);
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  else if (needsIdempotencyKey(method) && headers['idempotency-key'] === undefined) {
    headers['idempotency-key'] = generateIdempotencyKey();
  }
  return headers;
}

import { isPromise } from '../core/is-promise.js';
import { newRequestId } from '../core/ids.js';
import type { Dispatch } from './app.js';
import type { WireResponse } from './response.js';

/** Which browser origins may call the standalone mock: any (`*`), or these exact origins. */
export type CorsOrigins = '*' | readonly string[];

/** The response headers a page's script may read besides the CORS-safelisted ones: the ones the SDK reads. */
export const EXPOSED_HEADERS = [
  'Request-Id',
  'Cardrail-Hint',
  'Idempotent-Replayed',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  // The mock's own: which answers a test's fault changed (mock.faults), for pages under test that report it.
  'Cardrail-Mock-Fault',
] as const;

/** Every method an operation of the API uses. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** How long a browser may cache a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;
/** A longer Access-Control-Request-Headers is not a real client's, and is not echoed. */
const MAX_REQUESTED_HEADERS_LENGTH = 1024;

interface HeaderLookup {
  get(name: string): string | null;
}

/**
 * The mock's dispatch with CORS for these origins (`false`: none, so a browser refuses every cross-origin call):
 * preflights are answered before the API sees them, and every other answer gets the CORS headers of its origin.
 */
export function withCors(dispatch: Dispatch, origins: CorsOrigins | false): Dispatch {
  if (origins === false) return dispatch;
  const cors = createCors(origins);
  return (request) => {
    if (request.method === 'OPTIONS') {
      const preflight = cors.preflight(request.method, request.headers);
      if (preflight) return preflight;
    }
    const origin = request.headers.get('origin');
    const answer = dispatch(request);
    if (isPromise(answer)) {
      return answer.then((settled) => {
        cors.decorate(origin, settled.headers);
        return settled;
      });
    }
    cors.decorate(origin, answer.headers);
    return answer;
  };
}

/** The CORS side of the standalone mock's HTTP transport: preflights, and the headers of every other answer. */
interface Cors {
  /**
   * The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`), or undefined for any other request.
   * A preflight is answered before the API sees it: it needs no key and never counts against a rate limit.
   */
  preflight(method: string, headers: HeaderLookup): WireResponse | undefined;
  /** Adds the CORS headers of an answer to a request from `origin` (the request's `Origin` header). */
  decorate(origin: string | null, headers: Record<string, string>): void;
}

/**
 * CORS for these origins. With `*`, every answer allows any origin (`Access-Control-Allow-Origin: *`: the API takes
 * its key in a header, never a cookie, so no credentials mode is needed); with a list, an allowed origin is echoed
 * (with `Vary: Origin`) and any other gets no CORS header, so its browser refuses the answer.
 */
function createCors(origins: CorsOrigins): Cors {
  const allowed = origins === '*' ? undefined : new Set(origins.map(normalizeOrigin));
  const allowOrigin = (origin: string | null): string | undefined => {
    if (allowed === undefined) return '*';
    if (origin === null) return undefined;
    return allowed.has(normalizeOrigin(origin)) ? origin : undefined;
  };
  const exposed = EXPOSED_HEADERS.join(', ');
  return {
    preflight(method, headers) {
      if (method !== 'OPTIONS' || headers.get('access-control-request-method') === null) return undefined;
      const answer: Record<string, string> = { 'Request-Id': newRequestId() };
      const origin = allowOrigin(headers.get('origin'));
      if (origin !== undefined) {
        answer['Access-Control-Allow-Origin'] = origin;
        answer['Access-Control-Allow-Methods'] = ALLOWED_METHODS;
        // The headers a client sends vary (Authorization or Api-Key, Idempotency-Key, its own): each is allowed
        // by name, since `*` does not cover Authorization.
        const requested = headers.get('access-control-request-headers');
        if (requested !== null && requested.length <= MAX_REQUESTED_HEADERS_LENGTH) {
          answer['Access-Control-Allow-Headers'] = requested;
        }
        answer['Access-Control-Max-Age'] = String(PREFLIGHT_MAX_AGE_SECONDS);
      }
      answer.Vary = allowed === undefined ? 'Access-Control-Request-Headers' : 'Origin, Access-Control-Request-Headers';
      return { status: 204, headers: answer, body: '' };
    },
    decorate(origin, headers) {
      const allow = allowOrigin(origin);
      if (allowed !== undefined) headers.Vary = 'Origin';
      if (allow === undefined) return;
      headers['Access-Control-Allow-Origin'] = allow;
      headers['Access-Control-Expose-Headers'] = exposed;
    },
  };
}

/**
 * The origins of a `--cors` value: `*`, or a comma-separated list of origins (`scheme://host[:port]`). Anything else
 * is an error that says what an origin looks like.
 */
export function parseCorsOrigins(text: string): CorsOrigins {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) throw new Error('--cors needs `*` or a comma-separated list of origins, such as http://localhost:5173');
  if (parts.includes('*')) {
    if (parts.length > 1) throw new Error('--cors takes `*` alone or a list of origins, not both');
    return '*';
  }
  for (const part of parts) {
    let url: URL | undefined;
    try {
      url = new URL(part);
    } catch {
      url = undefined;
    }
    if (url === undefined || !/^https?:$/.test(url.protocol) || url.origin !== normalizeOrigin(part)) {
      throw new Error(
        `--cors: ${part} is not an origin; an origin is a scheme, a host and an optional port, such as http://localhost:5173 (no path)`,
      );
    }
  }
  return parts;
}

/** An origin as URL serializes it (lowercase scheme and host, no default port, no trailing slash). */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.pathname === '/' && url.search === '' && url.hash === '' ? url.origin : origin;
  } catch {
    return origin;
  }
}

/** The bearer token of an `Authorization` header (RFC 6750 section 2.1; MCP allows only the header). */

/** Tokens longer than this are refused before any parsing: no authorization server issues them. */
const MAX_TOKEN_LENGTH = 8192;

// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** What the header carries: no bearer credentials, a malformed one, or a token to verify. */
export type BearerCredentials = { kind: 'none' } | { kind: 'malformed'; reason: string } | { kind: 'token'; token: string };

/**
 * Reads `Authorization: Bearer <token>`. No header, or another scheme (`Basic ...`), is no bearer credentials: the
 * client gets the plain challenge. `Bearer` with nothing usable after it is malformed.
 */
export function bearerCredentials(header: string | null): BearerCredentials {
  if (header === null) return { kind: 'none' };
  const value = header.trim();
  const space = value.search(/\s/);
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'none' };
  const token = space === -1 ? '' : value.slice(space).trim();
  if (token === '') return { kind: 'malformed', reason: 'The Authorization header has the Bearer scheme but no token.' };
  if (token.length > MAX_TOKEN_LENGTH)
    return { kind: 'malformed', reason: `The bearer token is longer than ${MAX_TOKEN_LENGTH} characters.` };
  if (!B64TOKEN.test(token)) return { kind: 'malformed', reason: 'The bearer token has characters a token cannot have.' };
  return { kind: 'token', token };
}

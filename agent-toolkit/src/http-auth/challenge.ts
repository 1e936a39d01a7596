/**
 * The answers that refuse a request: `401` and `403` with a `WWW-Authenticate: Bearer` challenge (RFC 6750 section 3,
 * with RFC 9728's `resource_metadata`), and `503` when the issuer's keys cannot be read. The body is the OAuth error
 * JSON, `{"error","error_description"}`, for people reading it; clients act on the header.
 */

/** What a challenge says. */
export interface BearerChallenge {
  /** `invalid_token` or `insufficient_scope`; none when the request carried no token (RFC 6750 section 3.1). */
  error?: 'invalid_token' | 'insufficient_scope' | undefined;
  /** Why, for a person. */
  description?: string | undefined;
  /** The scopes the request needs. */
  scopes: readonly string[];
  /** The URL of the protected resource metadata (RFC 9728 section 5.1). */
  resourceMetadata: string;
}

// RFC 6750 section 3: error_description is limited to %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash).
const quotedDescription = (text: string) => text.replace(/[^\u0020\u0021\u0023-\u005B\u005D-\u007E]/g, ' ').slice(0, 300);
// URLs and scope tokens cannot hold a quote or a backslash, but a quoted-string escapes them whatever comes.
const quoted = (text: string) => text.replace(/[\\"]/g, (character) => `\\${character}`);

/** The `WWW-Authenticate` value, e.g. `Bearer error="invalid_token", error_description="...", resource_metadata="...", scope="..."`. */
export function bearerChallengeHeader(challenge: BearerChallenge): string {
  const parts: string[] = [];
  if (challenge.error !== undefined) parts.push(`error="${challenge.error}"`);
  if (challenge.error !== undefined && challenge.description !== undefined)
    parts.push(`error_description="${quotedDescription(challenge.description)}"`);
  parts.push(`resource_metadata="${quoted(challenge.resourceMetadata)}"`);
  if (challenge.scopes.length > 0) parts.push(`scope="${quoted(challenge.scopes.join(' '))}"`);
  return `Bearer ${parts.join(', ')}`;
}

function errorJson(status: number, error: string, description: string, headers: Record<string, string>): Response {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
  });
}

/** 401: no token (plain challenge), or a token refused (`invalid_token` with the reason). */
export function unauthorizedResponse(challenge: Omit<BearerChallenge, 'error'> & { invalid: boolean }): Response {
  const description =
    challenge.description ?? 'This MCP endpoint needs an OAuth access token in the Authorization header (Bearer).';
  const header = bearerChallengeHeader({ ...challenge, error: challenge.invalid ? 'invalid_token' : undefined, description });
  return errorJson(401, challenge.invalid ? 'invalid_token' : 'unauthorized', description, { 'WWW-Authenticate': header });
}

/** 403 `insufficient_scope`: the token is good but lacks a scope this request needs; `scopes` lists all it needs. */
export function insufficientScopeResponse(challenge: Omit<BearerChallenge, 'error'> & { description: string }): Response {
  const header = bearerChallengeHeader({ ...challenge, error: 'insufficient_scope' });
  return errorJson(403, 'insufficient_scope', challenge.description, { 'WWW-Authenticate': header });
}

/** 503: the token could not be checked now (the issuer's metadata or keys are out of reach); try again later. */
export function unverifiableResponse(description: string, retryAfterSeconds: number): Response {
  return errorJson(503, 'temporarily_unavailable', description, { 'Retry-After': String(retryAfterSeconds) });
}

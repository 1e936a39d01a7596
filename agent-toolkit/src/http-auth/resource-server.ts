import { AccessTokenError } from './access-token-error.js';
import { bearerCredentials } from './bearer-token.js';
import { insufficientScopeResponse, unauthorizedResponse, unverifiableResponse } from './challenge.js';
import type { TokenPrincipal } from './claims.js';
import { metadataResponse, type ProtectedResourceMetadata, protectedResourceMetadata } from './protected-resource-metadata.js';
import { connectScopes, missingScopes, requiredScopes, type ScopeNames, type ToolHints, unionOfScopes } from './scopes.js';
import { type HttpAuthOptions, resolveHttpAuthSettings } from './settings.js';
import { createSigningKeys } from './signing-keys.js';
import { createAccessTokenVerifier } from './token-verifier.js';

/** A request's access token checked: its principal, or the answer that refuses it (401, 403 or 503). */
export type Authentication =
  | {
      /** The token is good and has the read scope. */
      ok: true;
      /** Whom it speaks for. */
      principal: TokenPrincipal;
    }
  | {
      /** The request is refused. */
      ok: false;
      /** The answer to send as it is (status, `WWW-Authenticate`, OAuth error JSON). */
      response: Response;
    };

/**
 * A verified token as the MCP SDK carries it (`AuthInfo` of `@modelcontextprotocol/server` 2.x): what the transport
 * hands to its handlers as `ctx.http.authInfo`.
 */
export interface McpAuthInfo {
  /** The access token. */
  token: string;
  /** The OAuth client (`client_id`, `azp`), else the subject, else empty. */
  clientId: string;
  /** The scopes granted. */
  scopes: string[];
  /** When the token expires, in seconds since the epoch. */
  expiresAt: number;
  /** The audience: the resource the token is for (RFC 8707). */
  resource: URL;
  /** The protected resource metadata URL, for challenges built after authentication. */
  resourceMetadataUrl: string;
  /** The principal, for the server's own use. */
  extra: {
    /** The agent, card and scopes of the token. */
    principal: TokenPrincipal;
  };
}

/**
 * The MCP endpoint as an OAuth 2.1 resource server (MCP authorization, revisions 2025-11-25 and 2026-07-28): its
 * protected resource metadata, the check of each request's bearer token, and the scope check of each tool call.
 * Web-standard (Request and Response) and independent of the MCP SDK: a transport calls it before its MCP handler.
 * Nothing here calls the Cardrail API.
 */
export interface OAuthResourceServer {
  /** The issuer whose tokens are accepted. */
  readonly issuer: string;
  /** The MCP endpoint's URL, which tokens must name in `aud`. */
  readonly audience: string;
  /** Where clients read the metadata: RFC 9728's path form of the audience. */
  readonly metadataUrl: string;
  /** The scope names in force. */
  readonly scopes: Readonly<ScopeNames>;
  /** The metadata document. */
  readonly metadata: ProtectedResourceMetadata;
  /**
   * The answer for a metadata path (GET, HEAD, OPTIONS; 405 otherwise), or undefined for any other path. Reads only
   * the method and the URL, so a transport can ask before it builds a `Request`.
   */
  metadataResponse(request: Pick<Request, 'method' | 'url'>): Response | undefined;
  /**
   * Checks the request's bearer token (only its headers are read; the body is left unread): its principal, or a 401
   * (no token, or refused), a 403 (no read scope) or a 503 (the issuer's keys out of reach). Never throws.
   */
  authenticate(request: Request): Promise<Authentication>;
  /** Every scope a call of a tool with these hints needs. */
  requiredScopes(hints: ToolHints): string[];
  /**
   * The 403 `insufficient_scope` answer (with `WWW-Authenticate` naming every scope the request needs, as MCP asks for
   * all of them in one challenge) when the principal lacks a scope that a request doing what these hints say needs
   * (the read scope always, the spend scope for anything not read-only); undefined when it has them.
   */
  insufficientScope(principal: TokenPrincipal, effects: readonly ToolHints[]): Response | undefined;
  /** The principal as an MCP SDK's `AuthInfo` (the principal itself in `extra.principal`). */
  authInfo(principal: TokenPrincipal): McpAuthInfo;
  /** Finds and reads the issuer's keys now rather than at the first token; resolves with the JWKS URL. */
  prepare(): Promise<string>;
}

/** Seconds a client is told to wait after a 503. */
const RETRY_AFTER_SECONDS = 10;

/**
 * An OAuth resource server for the MCP endpoint. Throws `HttpAuthOptionError` for options it cannot take (an http
 * issuer off loopback, `none` or HS* among the algorithms...).
 *
 * @example
 * ```ts
 * const auth = createOAuthResourceServer({ issuer: 'https://auth.example.com/', audience: 'https://mcp.example.com/mcp' });
 * const checked = await auth.authenticate(request);
 * if (!checked.ok) return checked.response; // 401, 403 or 503 with WWW-Authenticate
 * ```
 */
export function createOAuthResourceServer(options: HttpAuthOptions): OAuthResourceServer {
  const settings = resolveHttpAuthSettings(options);
  const keys = createSigningKeys(settings);
  const verifier = createAccessTokenVerifier(settings, keys);
  const metadata = protectedResourceMetadata(settings);
  const connect = connectScopes(settings.scopes);
  const challenge = { resourceMetadata: settings.metadataUrl };

  const verify = async (token: string): Promise<Authentication> => {
    try {
      return { ok: true, principal: await verifier.verify(token) };
    } catch (error) {
      if (error instanceof AccessTokenError && error.kind === 'invalid') {
        return {
          ok: false,
          response: unauthorizedResponse({ ...challenge, scopes: connect, invalid: true, description: error.message }),
        };
      }
      if (!(error instanceof AccessTokenError)) settings.onProblem(`OAuth: a token could not be checked: ${String(error)}`);
      const description = error instanceof AccessTokenError ? error.message : 'The access token could not be checked now.';
      return { ok: false, response: unverifiableResponse(description, RETRY_AFTER_SECONDS) };
    }
  };

  const insufficient = (principal: TokenPrincipal, needed: string[]) => {
    const missing = missingScopes(principal.scopes, needed);
    if (missing.length === 0) return undefined;
    const description = `This request needs the scopes ${needed.join(' ')}; the token lacks ${missing.join(' ')}.`;
    return insufficientScopeResponse({ ...challenge, scopes: needed, description });
  };
  const toolScopes = (tools: readonly ToolHints[]) =>
    unionOfScopes([connect, ...tools.map((hints) => requiredScopes(hints, settings.scopes))]);

  return {
    issuer: settings.issuer,
    audience: settings.audience,
    metadataUrl: settings.metadataUrl,
    scopes: settings.scopes,
    metadata,
    metadataResponse: (request) => metadataResponse(request, settings, metadata),
    async authenticate(request) {
      const credentials = bearerCredentials(request.headers.get('authorization'));
      if (credentials.kind === 'none')
        return { ok: false, response: unauthorizedResponse({ ...challenge, scopes: connect, invalid: false }) };
      if (credentials.kind === 'malformed') {
        return {
          ok: false,
          response: unauthorizedResponse({ ...challenge, scopes: connect, invalid: true, description: credentials.reason }),
        };
      }
      const checked = await verify(credentials.token);
      if (!checked.ok) return checked;
      const refused = insufficient(checked.principal, connect);
      return refused === undefined ? checked : { ok: false, response: refused };
    },
    requiredScopes: (hints) => requiredScopes(hints, settings.scopes),
    insufficientScope: (principal, tools) => insufficient(principal, toolScopes(tools)),
    authInfo: (principal) => ({
      token: principal.token,
      clientId: principal.clientId ?? principal.subject ?? '',
      scopes: principal.scopes,
      expiresAt: principal.expiresAt,
      resource: new URL(settings.audience),
      resourceMetadataUrl: settings.metadataUrl,
      extra: { principal },
    }),
    prepare: () => keys.prepare(),
  };
}

import type { HttpAuthSettings } from './settings.js';
import { withoutTrailingSlash } from './url-policy.js';

/** The protected resource metadata document (RFC 9728 section 2) this server publishes. */
export interface ProtectedResourceMetadata {
  /** The MCP endpoint's URL: the audience tokens must name. */
  resource: string;
  /** The issuer whose tokens are accepted (MCP asks for at least one). */
  authorization_servers: string[];
  /** The scopes the tools use: read, then spend. */
  scopes_supported: string[];
  /** Tokens go in the `Authorization` header only (MCP forbids them in the query). */
  bearer_methods_supported: ['header'];
  /** A name clients may show. */
  resource_name: string;
  /** A page about using this resource. */
  resource_documentation: string;
}

export function protectedResourceMetadata(settings: HttpAuthSettings): ProtectedResourceMetadata {
  return {
    resource: settings.audience,
    authorization_servers: [settings.issuer],
    scopes_supported: [settings.scopes.read, settings.scopes.spend],
    bearer_methods_supported: ['header'],
    resource_name: settings.resourceName,
    resource_documentation: settings.resourceDocumentation,
  };
}

const ALLOWED = 'GET, HEAD, OPTIONS';
// The document is public: browser-based clients (such as the MCP Inspector) read it from another origin.
const CORS = { 'Access-Control-Allow-Origin': '*' };

/**
 * The answer for a request to one of the metadata paths (the path form RFC 9728 section 3.1 builds from the audience,
 * e.g. `/.well-known/oauth-protected-resource/mcp`, and the root `/.well-known/oauth-protected-resource`), or
 * undefined for any other path. GET and HEAD get the document, OPTIONS the CORS preflight, anything else 405. Only
 * the method and the URL are read.
 */
export function metadataResponse(
  request: Pick<Request, 'method' | 'url'>,
  settings: HttpAuthSettings,
  document: ProtectedResourceMetadata,
): Response | undefined {
  let path: string;
  try {
    path = withoutTrailingSlash(new URL(request.url).pathname);
  } catch {
    return undefined;
  }
  if (!settings.metadataPaths.includes(path)) return undefined;
  if (request.method === 'OPTIONS') {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS,
        'Access-Control-Allow-Methods': ALLOWED,
        'Access-Control-Allow-Headers': 'Authorization, MCP-Protocol-Version',
      },
    });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(
      JSON.stringify({ error: 'method_not_allowed', error_description: `Use GET; this path serves ${ALLOWED}.` }),
      {
        status: 405,
        headers: { ...CORS, Allow: ALLOWED, 'Content-Type': 'application/json' },
      },
    );
  }
  const body = JSON.stringify(document);
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { ...CORS, 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
  });
}

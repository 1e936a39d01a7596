import type { OAuthProtectedToolkits, TokenPrincipal, ToolHints } from '../http-auth/index.js';
import type { McpCallSummary, McpRequestAuthenticator } from './auth-context.js';

/** What `tasks/cancel` does, for its scope: it rejects the intent the task follows, a change like a spending tool's. */
const CHANGES_SOMETHING: ToolHints = { readOnly: false };

/**
 * What a request does, for the scopes it needs beyond the read scope every request needs: a tool call what its tool's
 * hints say (a tool outside the catalog needs nothing more: the server refuses it without calling the API), a task's
 * cancellation a change; every other method (`initialize`, `server/discover`, `tools/list`, `tasks/get`,
 * `tasks/update`, `subscriptions/listen`, `ping`, a notification, GET) only reads.
 */
function effectsOf(call: McpCallSummary): ToolHints[] {
  if (call.method === 'tools/call') return call.tool === undefined ? [] : [call.tool];
  if (call.method === 'tasks/cancel') return [CHANGES_SOMETHING];
  return [];
}

/**
 * Who signs the `requestState` and task ids a caller holds, beside the agent and card: the token's `sub`, else its
 * OAuth client, so that one person's cannot be used with another's token. A token with neither shares them with
 * every such token for the same agent and card.
 */
function subjectOf(principal: TokenPrincipal): string {
  if (principal.subject !== undefined) return `oauth-sub:${principal.subject}`;
  return principal.clientId === undefined ? 'oauth' : `oauth-client:${principal.clientId}`;
}

/**
 * The MCP endpoint's authenticator behind OAuth (what `createMcpFetchHandler` and `serveHttp` run when given
 * `protectWithOAuth`'s toolkits): the bearer token checked (401, 403 without the read scope, 503 while the issuer's
 * keys are out of reach), then the scopes the request needs (403 `insufficient_scope`), all before any MCP handling
 * and before anything reaches the API; then the toolkit of the agent and card the token names.
 */
export function oauthAuthenticator(served: OAuthProtectedToolkits): McpRequestAuthenticator {
  const { resourceServer } = served;
  return async (request, call) => {
    const checked = await resourceServer.authenticate(request);
    if (!checked.ok) return checked.response;
    const refused = resourceServer.insufficientScope(checked.principal, effectsOf(call));
    if (refused !== undefined) return refused;
    return {
      toolkit: served.toolkitFor(checked.principal),
      subject: subjectOf(checked.principal),
      authInfo: resourceServer.authInfo(checked.principal),
    };
  };
}

/** Whether `serveHttp` or `createMcpFetchHandler` was given `protectWithOAuth`'s toolkits rather than one toolkit. */
export function isOAuthProtected(served: object): served is OAuthProtectedToolkits {
  return 'resourceServer' in served && 'toolkitFor' in served;
}

/**
 * OAuth for the MCP endpoint over HTTP: the endpoint as an OAuth 2.1 resource server (protected resource metadata,
 * bearer tokens checked against the issuer's keys, scopes per tool), and the organization's toolkits chosen by each
 * token's claims. Independent of the MCP SDK; a transport plugs it in before its MCP handler.
 */
export type { ClaimNames, TokenPrincipal } from './claims.js';
export { type OAuthProtectedToolkits, type OrganizationToolkitOptions, protectWithOAuth } from './protect-with-oauth.js';
export type { ProtectedResourceMetadata } from './protected-resource-metadata.js';
export {
  type Authentication,
  createOAuthResourceServer,
  type McpAuthInfo,
  type OAuthResourceServer,
} from './resource-server.js';
export { requiredScopes, type ScopeNames, type ToolHints } from './scopes.js';
export { type HttpAuthOptions, HttpAuthOptionError } from './settings.js';

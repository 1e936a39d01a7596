/**
 * The toolkit as an MCP server, for any transport (`createCardrailMcpServer`) or as a fetch handler
 * (`createMcpFetchHandler`), serving MCP 2025-11-25 and 2026-07-28; the fetch handler also behind OAuth
 * (`createMcpFetchHandler(protectWithOAuth(auth, organization))`).
 *
 * @module @cardrail/agent-toolkit/mcp
 */
export { createCardrailMcpServer, type CardrailMcpServerOptions } from './server.js';
export type { ApprovalElicitationOptions } from './approval/settings.js';
export { createMcpFetchHandler, type McpFetchHandler, type McpFetchHandlerOptions } from './fetch-handler.js';
export type { McpAuthContext, McpCallSummary, McpRequestAuthenticator } from './auth-context.js';
export type { OriginPolicy } from './origin-check.js';
export { randomStateSecret, stateSecretFromApiKey, type StateSecret } from './state-secret.js';
export * from '../http-auth/index.js';

/**
 * The toolkit as an MCP server, for any transport (`createCardrailMcpServer`) or as a fetch handler.
 *
 * @module @cardrail/agent-toolkit/mcp
 */
export { createCardrailMcpServer, type CardrailMcpServerOptions } from './server.js';
export type { ApprovalElicitationOptions } from './approval-elicitation.js';
export { createMcpFetchHandler } from './fetch-handler.js';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CardrailToolkit, CardrailTool } from '../toolkit.js';
import { VERSION } from '../version.js';
import { guardParams } from './params-guard.js';

/** Options of the MCP server. */
export interface CardrailMcpServerOptions {
  /** The server name clients show; default `cardrail`. */
  name?: string | undefined;
}

function mcpTool(tool: CardrailTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: {
      readOnlyHint: tool.readOnly,
      // Only freeze_card takes something away, and doing it twice changes nothing.
      destructiveHint: tool.name === 'freeze_card',
      idempotentHint: tool.readOnly || tool.name === 'freeze_card',
      openWorldHint: false,
    },
  };
}

function instructions(toolkit: CardrailToolkit): string {
  const card = toolkit.cardId === undefined ? "the agent's cards" : `card ${toolkit.cardId}`;
  return (
    `Cardrail payment tools acting for agent ${toolkit.agentId} on ${card}. Amounts are in minor units (cents). ` +
    'Before paying: check_spending_power, then declare_intent; when the intent is pending_approval, wait for a ' +
    'human and check it with get_intent; then get_card_credentials and pay. Use freeze_card if anything looks wrong.'
  );
}

/**
 * An MCP server offering the toolkit's tools, for any transport (`server.connect(transport)`). A failed call is an
 * MCP tool error (`isError: true`) whose text is `{"error":{"code","message",...}}`, the API's code and message or
 * the toolkit's; a call never takes the server down. An unknown tool name, and params that are missing or not what
 * the method takes, are protocol errors (-32602, invalid params) with a one-line message, as MCP asks.
 *
 * @example
 * ```ts
 * const server = createCardrailMcpServer(toolkit);
 * await server.connect(transport); // any MCP transport
 * ```
 */
export function createCardrailMcpServer(toolkit: CardrailToolkit, options: CardrailMcpServerOptions = {}): Server {
  // The low-level Server, not McpServer: McpServer takes zod schemas, and the tools' schemas are JSON Schema derived
  // from the spec, which must reach clients unchanged.
  const server = new Server(
    { name: options.name ?? 'cardrail', version: VERSION },
    { capabilities: { tools: {} }, instructions: instructions(toolkit) },
  );
  const tools = toolkit.tools.map(mcpTool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: input } = request.params;
    if (!tools.some((tool) => tool.name === name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${name}; the tools are ${tools.map((tool) => tool.name).join(', ')}.`,
      );
    }
    const result = await toolkit.call(name, input);
    if (result.ok) return { content: [{ type: 'text', text: JSON.stringify(result.data) }] };
    return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: result.error }) }] };
  });
  // A request with missing or malformed params is -32602 with a short message, as MCP asks.
  guardParams(server);
  return server;
}

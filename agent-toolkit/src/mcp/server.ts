import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CardrailTool, CardrailToolkit, ToolResult } from '../toolkit.js';
import type { ToolCallOptions } from '../tools/tool-handler.js';
import { VERSION } from '../version.js';
import { type ApprovalElicitationOptions, approvalSettings, askForApproval } from './approval-elicitation.js';
import { guardParams } from './params-guard.js';

/** Options of the MCP server. */
export interface CardrailMcpServerOptions {
  /** The server name clients show; default `cardrail`. */
  name?: string | undefined;
  /** How `declare_intent` asks for a person's decision through a client that can show a URL (see its defaults). */
  approval?: ApprovalElicitationOptions | undefined;
}

function mcpTool(tool: CardrailTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: {
      title: tool.title,
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
    'Before paying: check_spending_power, then declare_intent. When the intent is pending_approval a person must ' +
    'decide: give them its approvalUrl and call wait_for_approval; pay only once it is pending (approved). Then ' +
    'get_card_credentials and pay. Use freeze_card if anything looks wrong.'
  );
}

/**
 * A tool's answer as MCP carries it: the data as `structuredContent` (valid against the tool's `outputSchema`) and
 * as JSON text for clients that read only text, then the next step and any note as text of their own. A failure is
 * `isError` with the text `{"error":{...}}`.
 */
function callToolResult(result: ToolResult, note?: string): CallToolResult {
  if (!result.ok) return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: result.error }) }] };
  const said = [note, result.nextStep].filter((text): text is string => text !== undefined);
  return {
    content: [{ type: 'text', text: JSON.stringify(result.data) }, ...said.map((text) => ({ type: 'text' as const, text }))],
    structuredContent: result.data as Record<string, unknown>,
  };
}

/**
 * An MCP server offering the toolkit's tools, for any transport (`server.connect(transport)`). Every tool has a
 * `title`, an input and an output JSON Schema derived from the API's spec; a call answers `structuredContent` with
 * the same data as JSON text beside it. A failed call is an MCP tool error (`isError: true`) whose text is
 * `{"error":{"code","message",...}}`; a call never takes the server down. An unknown tool name, and params that are
 * missing or not what the method takes, are protocol errors (-32602, invalid params) with a one-line message.
 *
 * A person's approval: `declare_intent` on a card that needs one asks a client that declared URL elicitation to show
 * the intent's approval page, then waits for the decision; any other client (or one that declines, fails or never
 * answers) gets the link and the `wait_for_approval` step. `wait_for_approval` reports progress to a client that
 * asked for it (`progressToken`) and stops when the client cancels the call.
 *
 * @example
 * ```ts
 * const server = createCardrailMcpServer(toolkit);
 * await server.connect(transport); // any MCP transport
 * ```
 */
export function createCardrailMcpServer(toolkit: CardrailToolkit, options: CardrailMcpServerOptions = {}): Server {
  const approval = approvalSettings(options.approval);
  // The low-level Server, not McpServer: McpServer takes zod schemas, and the tools' schemas are JSON Schema derived
  // from the spec, which must reach clients unchanged.
  const server = new Server(
    { name: options.name ?? 'cardrail', version: VERSION },
    { capabilities: { tools: {} }, instructions: instructions(toolkit) },
  );
  const tools = toolkit.tools.map(mcpTool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: input } = request.params;
    if (!tools.some((tool) => tool.name === name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${name}; the tools are ${tools.map((tool) => tool.name).join(', ')}.`,
      );
    }
    const progressToken = request.params._meta?.progressToken;
    const call: ToolCallOptions = {
      signal: extra.signal,
      ...(progressToken === undefined
        ? {}
        : {
            onProgress: (progress) => {
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken, progress: progress.elapsedMs, total: progress.totalMs, message: progress.message },
                })
                .catch(() => undefined);
            },
          }),
    };
    const result = await toolkit.call(name, input, call);
    if (name !== 'declare_intent') return callToolResult(result);
    const asked = await askForApproval(toolkit, result, server.getClientCapabilities(), approval, extra, call);
    return callToolResult(asked.result, asked.note);
  });
  // A request with missing or malformed params is -32602 with a short message, as MCP asks.
  guardParams(server);
  return server;
}

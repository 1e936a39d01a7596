import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests this server answers, with the schema each must match and what its params hold. */
const REQUESTS = {
  initialize: { schema: InitializeRequestSchema, needs: 'protocolVersion, capabilities and clientInfo' },
  ping: { schema: PingRequestSchema, needs: undefined },
  'tools/list': { schema: ListToolsRequestSchema, needs: undefined },
  'tools/call': { schema: CallToolRequestSchema, needs: "the tool's name and its arguments" },
} as const;

/**
 * Why a request's params are invalid, in a line, or undefined when they are valid (or the method is not one of this
 * server's). MCP asks for -32602 (invalid params) here; the SDK's own parse would answer -32603 with the whole schema.
 */
function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const request = REQUESTS[message.method as keyof typeof REQUESTS] as (typeof REQUESTS)[keyof typeof REQUESTS] | undefined;
  if (!request) return undefined;
  const params = (message as { params?: unknown }).params;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return `Invalid params: ${message.method} takes params as an object${request.needs ? ` (${request.needs})` : ''}.`;
  }
  if (params === undefined && request.needs)
    return `Invalid params: ${message.method} needs params: an object with ${request.needs}.`;
  const result = request.schema.safeParse(message);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  const where = issue?.path.join('.') || 'params';
  return `Invalid params: ${message.method}: ${where}: ${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}.`;
}

/**
 * The JSON-RPC error answer to a message's text whose params are invalid (`params` that is not an object is refused
 * by the SDK's transports as an unreadable message, with no id, before any handler sees it), or undefined.
 */
export function invalidParamsAnswer(text: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const id = (message as { id?: unknown }).id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const problem = paramsProblem(message as JSONRPCMessage);
  return problem === undefined
    ? undefined
    : JSON.stringify({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: problem } });
}

/**
 * Answers a request whose params are invalid with JSON-RPC -32602 and a short message, before it reaches the
 * server's handlers, on whatever transport the server is connected to.
 */
export function guardParams(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const problem = paramsProblem(message);
      if (problem === undefined) {
        deliver?.(message, extra);
        return;
      }
      const id = (message as { id: string | number }).id;
      void transport
        .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: problem } })
        .catch((error: unknown) => server.onerror?.(error instanceof Error ? error : new Error(String(error))));
    };
  };
}

import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type Server,
  specTypeSchemas,
  type Transport,
} from '@modelcontextprotocol/server';

/** The requests this server answers whose params it checks, with the spec's schema and what their params hold. */
const REQUESTS = {
  initialize: { schema: specTypeSchemas.InitializeRequest, needs: 'protocolVersion, capabilities and clientInfo' },
  ping: { schema: specTypeSchemas.PingRequest, needs: undefined },
  'tools/list': { schema: specTypeSchemas.ListToolsRequest, needs: undefined },
  'tools/call': { schema: specTypeSchemas.CallToolRequest, needs: "the tool's name and its arguments" },
} as const;

type Issue = { message: string; path?: readonly (PropertyKey | { key: PropertyKey })[] | undefined };

function where(issue: Issue | undefined): string {
  const path = (issue?.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
  return path.join('.') || 'params';
}

/**
 * Why a request's params are invalid, in a line, or undefined when they are valid (or the method is not one this
 * guard checks). MCP asks for -32602 (invalid params) here; the SDK's own parse would answer a dump of the schema's
 * issues, or refuse params that are not an object as an unreadable message without its id.
 */
function paramsProblem(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return undefined;
  const method = (message as { method: unknown }).method;
  // On a 2026-07-28 request (its protocol version in _meta) `initialize` and `ping` are removed methods, which the SDK
  // answers as that revision asks (404, -32601).
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const modern = typeof meta === 'object' && meta !== null && meta[PROTOCOL_VERSION_META_KEY] !== undefined;
  if (modern && (method === 'initialize' || method === 'ping')) return undefined;
  const request = REQUESTS[method as keyof typeof REQUESTS] as (typeof REQUESTS)[keyof typeof REQUESTS] | undefined;
  if (!request) return undefined;
  const params = (message as { params?: unknown }).params;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return `Invalid params: ${String(method)} takes params as an object${request.needs ? ` (${request.needs})` : ''}.`;
  }
  if (params === undefined && request.needs)
    return `Invalid params: ${String(method)} needs params: an object with ${request.needs}.`;
  const result = request.schema['~standard'].validate(message);
  if (result.issues === undefined) return undefined;
  const [issue] = result.issues as readonly Issue[];
  return `Invalid params: ${String(method)}: ${where(issue)}: ${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}.`;
}

/** The JSON-RPC error answer to a request with invalid params, or undefined. */
export function paramsRefusal(message: unknown): JSONRPCMessage | undefined {
  const problem = paramsProblem(message);
  if (problem === undefined) return undefined;
  const id = (message as { id: unknown }).id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  return { jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InvalidParams, message: problem } };
}

/** The answer (JSON text) to a message's text whose params are invalid, or undefined: for transports that read text. */
export function invalidParamsAnswer(text: string): string | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  const answer = paramsRefusal(message);
  return answer === undefined ? undefined : JSON.stringify(answer);
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
      const answer = paramsRefusal(message);
      if (answer === undefined) {
        deliver?.(message, extra);
        return;
      }
      void transport
        .send(answer)
        .catch((error: unknown) => server.onerror?.(error instanceof Error ? error : new Error(String(error))));
    };
  };
}

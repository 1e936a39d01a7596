// Raw JSON-RPC over MCP's streamable HTTP, for what the SDK's client does not show: HTTP statuses, the exact wire of
// a 2026-07-28 request (its _meta and headers), answers as JSON or as server-sent events.

/** One JSON-RPC message of an answer. */
export interface RpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method?: string;
  params?: any;
  result?: any;
  error?: { code: number; message: string; data?: any };
}

/** The messages of an answer's body: one JSON message, or the `data:` lines of server-sent events. */
export function rpcMessages(body: string): RpcMessage[] {
  const text = body.trim();
  if (text.startsWith('{')) return [JSON.parse(text) as RpcMessage];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as RpcMessage);
}

/** The answer to a request: the message with an id, whatever came before it on the stream. */
export function rpcAnswer(body: string): RpcMessage {
  const answer = rpcMessages(body).find((message) => message.id !== undefined && message.method === undefined);
  if (answer === undefined) throw new Error(`No JSON-RPC answer in ${body}`);
  return answer;
}

export const REVISION = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';

/** The capabilities of a client that follows tasks (the tasks extension). */
export const FOLLOWS_TASKS = { extensions: { [TASKS]: {} } };

export interface ModernOptions {
  /** What the client declares on this request (`{}`: nothing). */
  capabilities?: Record<string, unknown>;
  /** The handler to send to, instead of the network. */
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

let nextId = 1;

/** A 2026-07-28 request as a client sends it: `_meta` with the revision and capabilities, and the routing headers. */
export function modernRequest(url: string, method: string, params: Record<string, unknown>, options: ModernOptions = {}) {
  const id = nextId++;
  const meta = {
    ...(params._meta as Record<string, unknown> | undefined),
    'io.modelcontextprotocol/protocolVersion': REVISION,
    'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '0.0.0' },
  };
  const name =
    method === 'tools/call'
      ? params.name
      : method === 'resources/read'
        ? params.uri
        : method.startsWith('tasks/')
          ? params.taskId
          : undefined;
  return new Request(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': REVISION,
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
}

/** Sends a 2026-07-28 request and reads its answer. */
export async function modernRpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: ModernOptions = {},
): Promise<{ status: number; answer: RpcMessage }> {
  const request = modernRequest(url, method, params, options);
  const response = await (options.fetch ?? fetch)(request);
  return { status: response.status, answer: rpcAnswer(await response.text()) };
}

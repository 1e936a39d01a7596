import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CardrailToolkit } from '../toolkit.js';
import { invalidParamsAnswer } from './params-guard.js';
import { createCardrailMcpServer, type CardrailMcpServerOptions } from './server.js';

/**
 * MCP's streamable HTTP transport as a web-standard handler, `(request) => Promise<Response>`, for Node (through
 * `serveHttp`), Workers, Deno, Bun or a framework's route handler. Stateless: each request gets its own server and
 * transport and answers with plain JSON (no session, no server-sent events); the toolkit, with its scope cache, is
 * shared. The handler does not check `Host` or authenticate: put it behind whatever guards the route.
 */
export function createMcpFetchHandler(
  toolkit: CardrailToolkit,
  options: CardrailMcpServerOptions = {},
): (request: Request) => Promise<Response> {
  return async (incoming) => {
    let request = incoming;
    if (incoming.method === 'POST') {
      // Params that are not an object: -32602 here, where the transport would refuse the whole message without its id.
      const text = await incoming.text();
      const refused = invalidParamsAnswer(text);
      if (refused !== undefined) return new Response(refused, { status: 200, headers: { 'Content-Type': 'application/json' } });
      request = new Request(incoming, { body: text });
    }
    const server = createCardrailMcpServer(toolkit, options);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      // With JSON responses the answer is complete here, so the per-request server can go.
      await server.close();
    }
  };
}

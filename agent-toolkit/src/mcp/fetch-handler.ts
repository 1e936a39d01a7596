import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CardrailToolkit } from '../toolkit.js';
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
  return async (request) => {
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

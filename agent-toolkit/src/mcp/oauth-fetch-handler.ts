import type { OAuthProtectedToolkits } from '../http-auth/index.js';
import type { CardrailToolkit } from '../toolkit.js';
import { createMcpFetchHandler } from './fetch-handler.js';
import type { CardrailMcpServerOptions } from './server.js';

/** The names of the tools a JSON-RPC message (or batch) calls; none when it is not JSON (the MCP handler answers that). */
function calledTools(body: string): string[] {
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return [];
  }
  return (Array.isArray(message) ? message : [message]).flatMap((entry) => {
    const { method, params } = (entry ?? {}) as { method?: unknown; params?: { name?: unknown } };
    return method === 'tools/call' && typeof params?.name === 'string' ? [params.name] : [];
  });
}

/**
 * The MCP fetch handler behind an OAuth resource server: the metadata paths, then each request's bearer token (401,
 * 403 without the read scope), then the scopes of the tools it calls (403 `insufficient_scope`, decided from the
 * tools' hints before anything reaches the API), then the MCP handler of the toolkit the token names.
 */
export function createOAuthMcpFetchHandler(
  protectedToolkits: OAuthProtectedToolkits,
  options: CardrailMcpServerOptions = {},
): (request: Request) => Promise<Response> {
  const { resourceServer } = protectedToolkits;
  const handlers = new WeakMap<CardrailToolkit, (request: Request) => Promise<Response>>();
  const handlerOf = (toolkit: CardrailToolkit) => {
    let handler = handlers.get(toolkit);
    if (handler === undefined) {
      handler = createMcpFetchHandler(toolkit, options);
      handlers.set(toolkit, handler);
    }
    return handler;
  };
  return async (incoming) => {
    const metadata = resourceServer.metadataResponse(incoming);
    if (metadata !== undefined) return metadata;
    const checked = await resourceServer.authenticate(incoming);
    if (!checked.ok) return checked.response;
    const toolkit = protectedToolkits.toolkitFor(checked.principal);
    let request = incoming;
    if (incoming.method === 'POST') {
      const body = await incoming.text();
      // An unknown tool needs no scope: the MCP handler refuses it without calling the API.
      const tools = calledTools(body).flatMap((name) => toolkit.tools.filter((tool) => tool.name === name));
      const refused = resourceServer.insufficientScope(checked.principal, tools);
      if (refused !== undefined) return refused;
      request = new Request(incoming, { body });
    }
    return handlerOf(toolkit)(request);
  };
}

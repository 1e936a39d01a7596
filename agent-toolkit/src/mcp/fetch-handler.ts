import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import { customerTools, type ToolName } from '../generated/tool-schemas.js';
import type { OAuthProtectedToolkits } from '../http-auth/index.js';
import type { CardrailToolkit } from '../toolkit.js';
import {
  API_KEY_SUBJECT,
  bindingOf,
  type McpAuthContext,
  type McpCallSummary,
  type McpRequestAuthenticator,
} from './auth-context.js';
import { batchRefusal } from './batch-refusal.js';
import { type OriginPolicy, originRules, refusedOrigin } from './origin-check.js';
import { isOAuthProtected, oauthAuthenticator } from './oauth-authenticator.js';
import { paramsRefusal } from './params-guard.js';
import { MAX_BODY_BYTES, readBody } from './request-body.js';
import { buildCardrailServer, type CardrailMcpServerOptions, serverParts } from './server.js';
import { TaskIds } from './tasks/task-id.js';
import { isTaskListen } from './tasks/task-follow.js';
import { TaskListens } from './tasks/task-listen.js';

/** Options of `createMcpFetchHandler`: the server's, which pages may call it, and how requests are authenticated. */
export interface McpFetchHandlerOptions extends CardrailMcpServerOptions, OriginPolicy {
  /**
   * Runs for every request before any MCP handling: answers a `Response` to send as it is (401, 403), or the
   * context the request acts for (its toolkit: API key, agent, card). Default: none; every request acts for the
   * handler's toolkit (the API key mode). Given `protectWithOAuth`'s toolkits, the OAuth resource server's (and
   * not this option).
   */
  authenticate?: McpRequestAuthenticator | undefined;
}

/** MCP's streamable HTTP transport as a web-standard handler; `close()` ends the requests in flight. */
export interface McpFetchHandler {
  /** Serves one HTTP request to the MCP endpoint. */
  (request: Request): Promise<Response>;
  /** Ends the requests in flight: their clients see the answer end (a task stream ends as the extension says). */
  close(): Promise<void>;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What the request asks for, for the authenticator: the method and, for `tools/call`, the tool. */
function callSummary(message: unknown): McpCallSummary {
  const m = message as { method?: unknown; params?: { name?: unknown } } | undefined;
  const method = typeof m?.method === 'string' ? m.method : undefined;
  if (method !== 'tools/call' || typeof m?.params?.name !== 'string') return { method };
  const tool = Object.hasOwn(customerTools, m.params.name) ? customerTools[m.params.name as ToolName] : undefined;
  return { method, toolName: m.params.name, tool: tool === undefined ? undefined : { ...tool, name: tool.name as ToolName } };
}

/** Who requests act for: each its authenticator's context, or (the API key mode) all the handler's toolkit. */
function authenticationOf(served: CardrailToolkit | OAuthProtectedToolkits, authenticate: McpRequestAuthenticator | undefined) {
  if (!isOAuthProtected(served)) {
    const fallback: McpAuthContext = { toolkit: served, subject: API_KEY_SUBJECT };
    return { fallback, authenticate: authenticate ?? (async () => fallback) };
  }
  if (authenticate !== undefined) {
    throw new TypeError(
      '@cardrail/agent-toolkit: toolkits behind OAuth are authenticated by their resource server; drop authenticate.',
    );
  }
  return { fallback: undefined, authenticate: oauthAuthenticator(served) };
}

/**
 * MCP's streamable HTTP transport as a web-standard handler, `(request) => Promise<Response>`, for Node (through
 * `serveHttp`), Workers, Deno, Bun or a framework's route handler. One endpoint serves MCP 2026-07-28 (stateless
 * requests, `server/discover`, `input_required`, caching hints, the tasks extension) and 2025-11-25 (each request
 * answered on its own, without a session), negotiated per request by the SDK's `createMcpHandler`.
 *
 * In order, before any MCP handling: a browser page of another origin is refused (403, see `allowedOrigins`), the
 * body is read (1 MiB at most, else 413), the request is authenticated (`authenticate`, when given), a JSON-RPC batch
 * is refused (400: MCP has none since 2025-06-18), params that are not what the method takes are answered -32602 with
 * a one-line message, and a `subscriptions/listen` for tasks is served here (the SDK's does not know tasks). The
 * handler does not check `Host`: put it behind whatever guards the route (`serveHttp` does).
 *
 * Given `protectWithOAuth`'s toolkits instead of one toolkit, each request needs an OAuth access token (see
 * `oauthAuthenticator`); the protected resource metadata is served beside it, at its own paths
 * (`resourceServer.metadataResponse(request)`, which `serveHttp` routes).
 */
export function createMcpFetchHandler(
  served: CardrailToolkit | OAuthProtectedToolkits,
  options: McpFetchHandlerOptions = {},
): McpFetchHandler {
  const parts = serverParts(options);
  const origins = originRules(options.allowedOrigins);
  const { fallback, authenticate } = authenticationOf(served, options.authenticate);
  // The SDK hands the factory the request's authInfo as given: the context travels with it.
  const contexts = new WeakMap<AuthInfo, McpAuthContext>();
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const context = (authInfo === undefined ? undefined : contexts.get(authInfo)) ?? fallback;
      // Behind OAuth every request reaching MCP handling was given its context below.
      if (context === undefined) throw new Error('cardrail-mcp: a request reached MCP handling unauthenticated.');
      return buildCardrailServer(context, parts);
    },
    { maxRequestBodySize: MAX_BODY_BYTES },
  );
  const listens = new TaskListens();

  const fetch = async (incoming: Request): Promise<Response> => {
    const refused = refusedOrigin(incoming, origins);
    if (refused !== undefined) return refused;
    let request = incoming;
    let message: unknown;
    if (incoming.method === 'POST') {
      const body = await readBody(incoming);
      if (body instanceof Response) return body;
      message = parse(body);
      request = new Request(incoming, { body });
    }
    const context = await authenticate(request, callSummary(message));
    if (context instanceof Response) return context;
    const batch = batchRefusal(message);
    if (batch !== undefined) return batch;
    const invalid = paramsRefusal(message);
    if (invalid !== undefined) return Response.json(invalid);
    if (isTaskListen(message) && parts.settings.tasks) {
      return listens.serveHttp(message, request, new TaskIds(parts.secret, bindingOf(context)), context.toolkit);
    }
    let authInfo: AuthInfo | undefined;
    if (context !== fallback) {
      // A copy per request: the key under which this request's context travels is this request's alone.
      authInfo = { ...(context.authInfo ?? { token: '', clientId: context.subject, scopes: [] }) };
      contexts.set(authInfo, context);
    }
    return handler.fetch(request, {
      ...(authInfo === undefined ? {} : { authInfo }),
      ...(message === undefined ? {} : { parsedBody: message }),
    });
  };
  return Object.assign(fetch, {
    close: async () => {
      listens.closeAll();
      await handler.close();
    },
  });
}

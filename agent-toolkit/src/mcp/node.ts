/**
 * The MCP server over stdio or HTTP on Node (`serveStdio`, `serveHttp`), what `cardrail-mcp` runs; over HTTP also
 * behind OAuth (`serveHttp(protectWithOAuth(auth, organization))`), for hosting it behind a sign-in.
 *
 * @module @cardrail/agent-toolkit/mcp/node
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostHeaderValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { serveStdio as serveMcpStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { OAuthProtectedToolkits } from '../http-auth/index.js';
import type { CardrailToolkit } from '../toolkit.js';
import { API_KEY_SUBJECT, bindingOf } from './auth-context.js';
import { createMcpFetchHandler, type McpFetchHandlerOptions } from './fetch-handler.js';
import { isOAuthProtected } from './oauth-authenticator.js';
import { MAX_BODY_BYTES } from './request-body.js';
import { buildCardrailServer, type CardrailMcpServerOptions, serverParts } from './server.js';
import { stdioStreams } from './stdio-lines.js';
import { isTaskListen } from './tasks/task-follow.js';
import { TaskIds } from './tasks/task-id.js';
import { TaskListens } from './tasks/task-listen.js';

export * from '../http-auth/index.js';

/** An MCP server being served. */
export interface RunningMcpServer {
  /** Closes the transport and resolves once the server stopped. */
  close(): Promise<void>;
}

/**
 * Serves the toolkit over MCP's stdio transport (this process's stdin and stdout) until closed or stdin ends. The
 * client's first message chooses the revision for the connection: `initialize` (2025-11-25), or `server/discover`
 * then requests of 2026-07-28.
 *
 * @example
 * ```ts
 * const toolkit = createCardrailToolkit({ agentId: process.env.CARDRAIL_AGENT_ID! });
 * await serveStdio(toolkit); // what `cardrail-mcp` runs
 * ```
 */
export async function serveStdio(toolkit: CardrailToolkit, options: CardrailMcpServerOptions = {}): Promise<RunningMcpServer> {
  const parts = serverParts(options);
  const context = { toolkit, subject: API_KEY_SUBJECT };
  // Task status notifications: the SDK's stdio listen router drops `taskIds`, so such a listen is served here.
  const listens = new TaskListens();
  const tasks = new TaskIds(parts.secret, bindingOf(context));
  const streams = stdioStreams(process.stdin, process.stdout, {
    intercept: (message, write) => {
      if (parts.settings.tasks && isTaskListen(message)) {
        void listens.serveLines(message, tasks, toolkit, write);
        return true;
      }
      const cancelled = message as { method?: unknown; params?: { requestId?: unknown } } | undefined;
      const requestId = cancelled?.params?.requestId;
      if (cancelled?.method !== 'notifications/cancelled' || (typeof requestId !== 'string' && typeof requestId !== 'number')) {
        return false;
      }
      return listens.cancel(requestId);
    },
    onInputEnd: () => listens.closeAll(),
  });
  const handle = serveMcpStdio(() => buildCardrailServer(context, parts), {
    transport: new StdioServerTransport(streams.input, streams.output),
  });
  return {
    close: async () => {
      listens.closeAll();
      await handle.close();
    },
  };
}

/** Options of `serveHttp`: the handler's options, and where to listen. */
export interface McpHttpOptions extends McpFetchHandlerOptions {
  /** Default 4020; 0 picks a free port. */
  port?: number | undefined;
  /**
   * Default 127.0.0.1. Without an authenticator (or OAuth), anyone who can reach the server can use the agent's
   * tools: keep it on loopback.
   */
  host?: string | undefined;
  /** The endpoint's path; default `/mcp`. */
  path?: string | undefined;
  /**
   * Host names accepted in the `Host` header (DNS rebinding protection). Default: `localhost`, `127.0.0.1` and
   * `[::1]` on a loopback host, else the host itself. Behind OAuth the audience's host name is accepted too, always
   * (given names or not): it is the server's own name as clients reach it.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Pages that may call the server (their `Origin`), beside its own origin: origins or bare host names. Default:
   * `localhost`, `127.0.0.1` and `[::1]` (any port) on a loopback host, else none. Behind OAuth the audience's
   * origin is accepted too, always (the server's own, as browsers see it behind a proxy). Clients that are not
   * browsers send no `Origin`.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Answers requests outside the MCP endpoint that an authenticator serves itself, or undefined to answer 404.
   * Behind OAuth, the protected resource metadata is answered first (`/.well-known/oauth-protected-resource` and its
   * form for the endpoint's path).
   */
  routes?: ((request: Request) => Response | undefined | Promise<Response | undefined>) | undefined;
}

/** An MCP server listening over HTTP. */
export interface RunningMcpHttpServer extends RunningMcpServer {
  /** The endpoint, e.g. `http://127.0.0.1:4020/mcp`. */
  url: string;
  /** The port it listens on (the one picked when asked for 0). */
  port: number;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Serves the toolkit over MCP's streamable HTTP transport on node:http: one endpoint for MCP 2026-07-28 and
 * 2025-11-25 clients (see `createMcpFetchHandler`), answers streamed as server-sent events where the SDK streams
 * them. A `Host` outside `allowedHosts` and an `Origin` outside `allowedOrigins` are 403, another path 404, GET and
 * DELETE 405 (no session and no standalone event stream), a body over 1 MiB 413.
 *
 * Given `protectWithOAuth`'s toolkits, it is an OAuth resource server: the protected resource metadata at its paths,
 * and on the endpoint, once `Host` and `Origin` are checked, every request without a good token 401 (before any
 * other answer: a GET too), one without the scope it needs 403, each other acting for the agent its token names.
 */
export async function serveHttp(
  served: CardrailToolkit | OAuthProtectedToolkits,
  options: McpHttpOptions = {},
): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const loopback = LOOPBACK.includes(hostForUrl);
  const oauth = isOAuthProtected(served) ? served.resourceServer : undefined;
  // Behind OAuth the audience is the server's own URL as clients reach it (through a proxy, say): its host and
  // origin are always accepted, beside the defaults or the names given.
  const audience = oauth === undefined ? [] : [new URL(oauth.audience)];
  const allowedHosts = [
    ...(options.allowedHosts ?? (loopback ? LOOPBACK : [hostForUrl])),
    ...audience.map((url) => url.hostname),
  ];
  const handler = createMcpFetchHandler(served, {
    ...options,
    allowedOrigins: [...(options.allowedOrigins ?? (loopback ? LOOPBACK : [])), ...audience.map((url) => url.origin)],
  });
  const checkHost = hostHeaderValidation([...new Set(allowedHosts)]);
  const mcp = toNodeHandler({ fetch: handler }, { maxRequestBodySize: MAX_BODY_BYTES });
  const other = toNodeHandler(
    {
      fetch: async (request) =>
        oauth?.metadataResponse(request) ??
        (await options.routes?.(request)) ??
        Response.json({ error: `Not found; the MCP endpoint is ${path}.` }, { status: 404 }),
    },
    { maxRequestBodySize: MAX_BODY_BYTES },
  );

  const server = createServer((request, response) => {
    if (!checkHost(request, response)) return;
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    void (pathname === path ? mcp : other)(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4020, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostForUrl}:${port}${path}`,
    port,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

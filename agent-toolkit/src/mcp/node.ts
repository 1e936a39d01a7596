/**
 * The MCP server over stdio or loopback HTTP on Node (`serveStdio`, `serveHttp`), what `cardrail-mcp` runs; and the
 * HTTP endpoint as an OAuth resource server (`protectWithOAuth`), for hosting it behind a sign-in.
 *
 * @module @cardrail/agent-toolkit/mcp/node
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { OAuthProtectedToolkits } from '../http-auth/index.js';
import type { CardrailToolkit } from '../toolkit.js';
import { createMcpFetchHandler } from './fetch-handler.js';
import { createOAuthMcpFetchHandler } from './oauth-fetch-handler.js';
import { invalidParamsAnswer } from './params-guard.js';
import { createCardrailMcpServer, type CardrailMcpServerOptions } from './server.js';

export * from '../http-auth/index.js';

/** An MCP server being served. */
export interface RunningMcpServer {
  /** Closes the transport and resolves once the server stopped. */
  close(): Promise<void>;
}

/**
 * Serves the toolkit over MCP's stdio transport (this process's stdin and stdout) until closed or stdin ends.
 *
 * @example
 * ```ts
 * const toolkit = createCardrailToolkit({ agentId: process.env.CARDRAIL_AGENT_ID! });
 * await serveStdio(toolkit); // what `cardrail-mcp` runs
 * ```
 */
export async function serveStdio(toolkit: CardrailToolkit, options: CardrailMcpServerOptions = {}): Promise<RunningMcpServer> {
  const server = createCardrailMcpServer(toolkit, options);
  await server.connect(new StdioServerTransport(guardedLines(process.stdin, process.stdout), process.stdout));
  return { close: () => server.close() };
}

/**
 * The input lines as they come, except a request whose params are not an object: the SDK's stdio transport would
 * drop it without an answer, so it is answered here with -32602 and not passed on.
 */
function guardedLines(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Transform {
  let pending = '';
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline + 1);
        pending = pending.slice(newline + 1);
        const refused = invalidParamsAnswer(line);
        if (refused === undefined) this.push(line);
        else output.write(`${refused}\n`);
        newline = pending.indexOf('\n');
      }
      done();
    },
    flush(done) {
      if (pending !== '') this.push(pending);
      done();
    },
  });
  input.pipe(lines);
  return lines;
}

/** Options of `serveHttp`: the server's options, and where to listen. */
export interface McpHttpOptions extends CardrailMcpServerOptions {
  /** Default 4020; 0 picks a free port. */
  port?: number | undefined;
  /** Default 127.0.0.1. Anyone who can reach the server can use the agent's tools: keep it on loopback. */
  host?: string | undefined;
  /** The endpoint's path; default `/mcp`. */
  path?: string | undefined;
  /**
   * Host names accepted in the `Host` header (DNS rebinding protection). Default: `localhost`, `127.0.0.1` and
   * `[::1]` on a loopback host, else the host itself; behind OAuth, the audience's host name too.
   */
  allowedHosts?: readonly string[] | undefined;
}

/** An MCP server listening over HTTP. */
export interface RunningMcpHttpServer extends RunningMcpServer {
  /** The endpoint, e.g. `http://127.0.0.1:4020/mcp`. */
  url: string;
  /** The port it listens on (the one picked when asked for 0). */
  port: number;
}

/** Bodies larger than this are refused (413) before they are read to the end. */
const MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

function answerJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function rpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  answerJson(response, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The request body, or undefined once a 413 has been answered. The rest of a body too large is read and dropped
 * rather than kept; `Connection: close` ends the connection after the answer.
 */
function readBody(request: IncomingMessage, response: ServerResponse): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      tooLarge(response);
      resolve(undefined);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function send(response: ServerResponse, answer: Response): Promise<void> {
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

function tooLarge(response: ServerResponse): void {
  rpcError(response, 413, -32600, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
}

/**
 * Serves the toolkit over MCP's streamable HTTP transport (stateless, JSON answers) on node:http. Only POST is
 * served (405 otherwise, as MCP allows a server without a server-sent event stream); a `Host` outside
 * `allowedHosts` is 403. Given toolkits behind OAuth (`protectWithOAuth`), it serves the protected resource
 * metadata too, and each request acts for the agent its access token names.
 */
export async function serveHttp(
  toolkit: CardrailToolkit | OAuthProtectedToolkits,
  options: McpHttpOptions = {},
): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  // OAuth seam (src/http-auth): the resource server's metadata route, and its check before every MCP request.
  const oauth = 'resourceServer' in toolkit ? toolkit.resourceServer : undefined;
  const hosts = [...(LOOPBACK.includes(hostForUrl) ? LOOPBACK : [hostForUrl]), ...(oauth ? [oauth.audienceHostname] : [])];
  const allowedHosts = options.allowedHosts ?? hosts;
  const handle =
    'resourceServer' in toolkit ? createOAuthMcpFetchHandler(toolkit, options) : createMcpFetchHandler(toolkit, options);

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const hostname = hostnameOf(request.headers.host);
    if (hostname === undefined || !allowedHosts.includes(hostname)) {
      rpcError(response, 403, -32000, `Host ${request.headers.host ?? '(none)'} is not allowed.`);
      return;
    }
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const metadata = oauth?.metadataResponse({ method: request.method ?? 'GET', url: url.href }); // OAuth seam
    if (metadata !== undefined) return send(response, metadata);
    if (url.pathname !== path) {
      answerJson(response, 404, { error: `Not found; the MCP endpoint is ${path}.` });
      return;
    }
    if (request.method !== 'POST') {
      rpcError(response, 405, -32000, 'Method not allowed: this server answers POST only (no server-sent event stream).', {
        Allow: 'POST',
      });
      return;
    }
    if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      tooLarge(response);
      request.resume();
      return;
    }
    const body = await readBody(request, response);
    if (body === undefined) return;
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    await send(response, await handle(new Request(url, { method: 'POST', headers, body: body.toString('utf8') })));
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        rpcError(response, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else response.destroy();
    });
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// cardrail-mcp over HTTP behind OAuth for the tests: serveHttp(protectWithOAuth(...)) on 127.0.0.1 against a small
// authorization server (throwaway keys), the mock behind it, every request the toolkit sends to the API recorded, and
// the ways a client talks to it: the SDK's client of either revision, and raw requests whose refusals can be read.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  type HttpAuthOptions,
  type McpHttpOptions,
  protectWithOAuth,
  type RunningMcpHttpServer,
  serveHttp,
} from '../../src/mcp/node.js';
import { startAuthorizationServer, type TestAuthorizationServer, type TokenRequest } from './authorization-server.js';
import { freePort } from './free-port.js';
import { recordingFetch } from './recording-fetch.js';
import { modernRpc, REVISION, rpcAnswer } from './rpc.js';
import { startWorld, type World } from './world.js';

export const READ = 'cardrail:read';
export const SPEND = 'cardrail:spend';
export const LEGACY = '2025-11-25';

/** A refusal as the client sees it: the status and the headers (`WWW-Authenticate`). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
}

export interface OAuthEndpoint {
  world: World;
  as: TestAuthorizationServer;
  server: RunningMcpHttpServer;
  /** The endpoint's URL, the audience tokens are for. */
  audience: string;
  /** Where the protected resource metadata must be (RFC 9728 section 3.1). */
  metadataUrl: string;
  recorder: ReturnType<typeof recordingFetch>;
  /** A token of the world's agent with both scopes and `sub` alice, unless the claims say otherwise. */
  token(claims?: Record<string, unknown>, request?: Omit<TokenRequest, 'claims'>): Promise<string>;
  /** A raw request as a 2025-11-25 client sends it after initialize (a JSON-RPC message, no _meta). */
  post(
    body: unknown,
    bearer?: string,
    headers?: Record<string, string>,
    method?: string,
  ): Promise<HttpAnswer & { text: string; answer(): ReturnType<typeof rpcAnswer> }>;
  /** A 2026-07-28 request (its revision and the client's capabilities in _meta) and its JSON-RPC answer. */
  modern(
    method: string,
    params: Record<string, unknown>,
    bearer: string,
    capabilities?: Record<string, unknown>,
  ): ReturnType<typeof modernRpc>;
  /** The same request's bare answer, for refusals, which are not JSON-RPC. */
  modernRaw(method: string, params: Record<string, unknown>, bearer?: string): Promise<HttpAnswer>;
  /** The SDK's client with a bearer token: a 2025-11-25 client (`initialize`), or a 2026-07-28 one (`server/discover`). */
  connect(bearer: string, era: 'legacy' | 'modern'): Promise<Client>;
  close(): Promise<void>;
}

/** `auth` beside the test's issuer and audience (the endpoint's loopback URL unless named); `http`, serveHttp's. */
export async function startOAuthEndpoint(
  auth: Partial<HttpAuthOptions> = {},
  http: Omit<McpHttpOptions, 'port'> = {},
): Promise<OAuthEndpoint> {
  const world = await startWorld();
  const port = await freePort();
  const audience = auth.audience ?? `http://127.0.0.1:${port}/mcp`;
  const as = await startAuthorizationServer(audience);
  const recorder = recordingFetch();
  const served = protectWithOAuth(
    { issuer: as.issuer, ...auth, audience },
    { apiKey: world.apiKey, baseUrl: world.baseUrl, clientOptions: { fetch: recorder.fetch, maxRetries: 0 } },
  );
  const server = await serveHttp(served, { ...http, port });
  const authorization = (bearer?: string): Record<string, string> =>
    bearer === undefined ? {} : { authorization: `Bearer ${bearer}` };

  return {
    world,
    as,
    server,
    audience,
    // RFC 9728's form, written out here rather than read from the server under test.
    metadataUrl: `${new URL(audience).origin}/.well-known/oauth-protected-resource${new URL(audience).pathname}`,
    recorder,
    token: (claims = {}, request = {}) =>
      as.sign({ ...request, claims: { sub: 'alice', cardrail_agent_id: world.agentId, scope: `${READ} ${SPEND}`, ...claims } }),
    async post(body, bearer, headers = {}, method = 'POST') {
      const response = await fetch(server.url, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': LEGACY,
          ...authorization(bearer),
          ...headers,
        },
        ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text, answer: () => rpcAnswer(text) };
    },
    modern: (method, params, bearer, capabilities = {}) =>
      modernRpc(server.url, method, params, { capabilities, headers: authorization(bearer) }),
    async modernRaw(method, params, bearer) {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': REVISION,
          ...authorization(bearer),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION } },
        }),
      });
      await response.body?.cancel();
      return { status: response.status, headers: response.headers };
    },
    async connect(bearer, era) {
      const client = new Client(
        { name: 'oauth-test', version: '0.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: REVISION } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: authorization(bearer) } }),
      );
      expect(client.getProtocolEra()).toBe(era);
      return client;
    },
    async close() {
      await server.close();
      await as.close();
      await world.close();
    },
  };
}

/** A JSON-RPC `tools/list` message. */
export const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

/** A JSON-RPC `tools/call` message. */
export const toolCall = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name, arguments: args },
});

/**
 * One endpoint for a test file, handed to `use` before its tests run: closed after them, and what its recorder holds
 * emptied before each test. Call it at the file's top level (it registers the file's hooks).
 */
export function oauthEndpointPerFile(use: (endpoint: OAuthEndpoint) => void): void {
  let started: OAuthEndpoint | undefined;
  beforeAll(async () => {
    started = await startOAuthEndpoint();
    use(started);
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    if (started) started.recorder.sent.length = 0;
  });
}

/** A purchase to declare on the world's approval card, under a summary of its own (no two intents alike). */
export const approvalPurchase = (world: World) => ({
  cardId: world.approvalCard,
  summary: `API credits ${Math.random().toString(36).slice(2, 7)}`,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

/** How many intents the world's approval card has. */
export const intentsOnApprovalCard = async (world: World): Promise<number> =>
  (await world.api.intents.list({ cardId: world.approvalCard, limit: 100 })).data.length;

import { Cardrail } from '@cardrail/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../src/index.js';
import { protectWithOAuth, type RunningMcpHttpServer, serveHttp } from '../src/mcp/node.js';
import { startAuthorizationServer, type TestAuthorizationServer, unsignedToken } from './support/authorization-server.js';
import { bearerChallenge } from './support/bearer-challenge.js';
import { freePort } from './support/free-port.js';
import { recordingFetch } from './support/recording-fetch.js';
import { mcpCaller } from './support/tool-caller.js';
import { newKey, startWorld, type World } from './support/world.js';

let world: World;
let as: TestAuthorizationServer;
let server: RunningMcpHttpServer;
let audience: string;
const recorder = recordingFetch();

beforeAll(async () => {
  world = await startWorld();
  const port = await freePort();
  audience = `http://127.0.0.1:${port}/mcp`;
  as = await startAuthorizationServer(audience);
  const served = protectWithOAuth(
    { issuer: as.issuer, audience },
    { apiKey: world.apiKey, baseUrl: world.baseUrl, clientOptions: { fetch: recorder.fetch, maxRetries: 0 } },
  );
  server = await serveHttp(served, { port });
});
afterAll(async () => {
  await server?.close();
  await as?.close();
  await world?.close();
});
beforeEach(() => {
  recorder.sent.length = 0;
});

const READ = 'cardrail:read';
const SPEND = 'cardrail:spend';
const metadataUrl = () => `${new URL(audience).origin}/.well-known/oauth-protected-resource/mcp`;

function token(claims: Record<string, unknown> = {}, request: Parameters<TestAuthorizationServer['sign']>[0] = {}) {
  return as.sign({ ...request, claims: { cardrail_agent_id: world.agentId, scope: `${READ} ${SPEND}`, ...claims } });
}

async function post(body: unknown, bearer?: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name, arguments: args },
});

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }),
  );
  return client;
}

describe('cardrail-mcp over HTTP behind OAuth', () => {
  it('serves its protected resource metadata at the path form and at the root, without a token', async () => {
    for (const url of [metadataUrl(), `${new URL(audience).origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: audience,
        authorization_servers: [as.issuer],
        scopes_supported: [READ, SPEND],
        bearer_methods_supported: ['header'],
        resource_name: 'Cardrail',
        resource_documentation: 'https://github.com/cardrail/cardrail/blob/main/docs/agents.md#hosting-with-oauth',
      });
    }
    expect((await fetch(metadataUrl(), { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(metadataUrl(), { method: 'OPTIONS' })).status).toBe(204);
    const post = await fetch(metadataUrl(), { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${metadataUrl()}/deeper`)).status).toBe(404);
    expect(recorder.sent).toEqual([]);
  });

  it('answers a request without a bearer token 401 with resource_metadata and scope, and no error', async () => {
    for (const headers of [{}, { authorization: 'Basic dXNlcjpwYXNz' }] as Record<string, string>[]) {
      const answer = await post(listTools, undefined, headers);
      expect(answer.status).toBe(401);
      expect(bearerChallenge(answer.headers.get('www-authenticate'))).toEqual({ resource_metadata: metadataUrl(), scope: READ });
      expect(answer.json()).toMatchObject({ error: 'unauthorized' });
    }
    expect(recorder.sent).toEqual([]);
  });

  it('refuses a malformed, forged, foreign, expired or incomplete token with 401 invalid_token, and sends nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string | Promise<string>, RegExp][] = [
      ['not a JWT', 'abc.def', /not a well-formed signed JWT/],
      ['characters a token cannot have', 'abc def"', /characters a token cannot have/],
      ['too long', 'a'.repeat(9000), /longer than 8192/],
      ['signed by a key the issuer does not publish', token({}, { key: 'stranger' }), /signature does not verify/],
      ['another issuer', token({}, { issuer: 'http://127.0.0.1:1/elsewhere' }), /another authorization server \(iss\)/],
      ['another audience', token({}, { audience: 'http://127.0.0.1:1/mcp' }), /another resource \(aud\)/],
      ['expired', token({}, { expiresIn: -120 }), /expired \(exp\)/],
      ['not valid yet', token({}, { notBefore: 600 }), /not valid yet \(nbf\)/],
      ['without exp', token({}, { expiresIn: null }), /exp/],
      [
        'unsigned (alg none)',
        unsignedToken({ iss: as.issuer, aud: audience, exp: now + 300, cardrail_agent_id: world.agentId }),
        /algorithm/,
      ],
      ['an ID token (typ)', token({}, { header: { typ: 'id_token+jwt' } }), /not an access token/],
      ['without the agent claim', token({ cardrail_agent_id: undefined }), /no cardrail_agent_id claim/],
      ['a malformed agent claim', token({ cardrail_agent_id: '../agents' }), /cardrail_agent_id claim must be a Cardrail id/],
      ['a malformed card claim', token({ cardrail_card_id: 42 }), /cardrail_card_id claim must be a Cardrail id/],
      ['a scope claim that is not a string', token({ scope: 7 }), /scope claim must be/],
    ];
    for (const [what, bearer, description] of cases) {
      const answer = await post(listTools, await bearer);
      expect(answer.status, what).toBe(401);
      const challenge = bearerChallenge(answer.headers.get('www-authenticate'));
      expect(challenge, what).toMatchObject({ error: 'invalid_token', resource_metadata: metadataUrl(), scope: READ });
      expect(challenge.error_description, what).toMatch(description);
      expect(answer.json(), what).toMatchObject({ error: 'invalid_token' });
    }
    expect(recorder.sent).toEqual([]);
  });

  it('accepts RFC 9068 access tokens (at+jwt) and plain JWTs, ES256 and RS256, aud as a list', async () => {
    const tokens = [
      token(),
      token({}, { key: 'rs256' }),
      token({}, { header: { typ: 'application/at+jwt' } }),
      token({}, { header: { typ: 'JWT' } }),
      token({}, { header: { typ: undefined } }),
      token({}, { audience: ['https://other.example/api', audience] }),
      token({ scope: undefined, scp: [READ] }),
    ];
    for (const bearer of tokens) expect((await post(listTools, await bearer)).status).toBe(200);
  });

  it('refuses a token without the read scope with 403 insufficient_scope, even to list the tools', async () => {
    const answer = await post(listTools, await token({ scope: 'openid profile' }));
    expect(answer.status).toBe(403);
    expect(bearerChallenge(answer.headers.get('www-authenticate'))).toMatchObject({
      error: 'insufficient_scope',
      scope: READ,
      resource_metadata: metadataUrl(),
    });
  });

  it('steps up: a read-only token reads, and a spending call is 403 insufficient_scope before anything reaches the API', async () => {
    const readOnly = await token({ scope: READ });
    const client = await connect(readOnly);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(await mcpCaller(client)('check_spending_power', { cardId: world.approvalCard })).toMatchObject({
      isError: false,
      payload: { cardId: world.approvalCard },
    });
    await client.close();
    recorder.sent.length = 0;
    for (const [name, args] of [
      [
        'declare_intent',
        { cardId: world.approvalCard, summary: 'API credits', expectedAmount: 2_500, expectedMerchant: 'OpenAI' },
      ],
      ['get_card_credentials', { cardId: world.plainCard }],
      ['freeze_card', { cardId: world.plainCard }],
    ] as const) {
      const answer = await post(call(name, args), readOnly);
      expect(answer.status, name).toBe(403);
      expect(bearerChallenge(answer.headers.get('www-authenticate')), name).toMatchObject({
        error: 'insufficient_scope',
        scope: `${READ} ${SPEND}`,
        resource_metadata: metadataUrl(),
      });
    }
    expect(recorder.sent).toEqual([]);
    // A batch hides nothing: one spending call in it refuses the whole request.
    const batch = await post(
      [call('check_spending_power', { cardId: world.plainCard }), call('freeze_card', { cardId: world.plainCard })],
      readOnly,
    );
    expect(batch.status).toBe(403);
    expect(recorder.sent).toEqual([]);
  });

  it('acts as the agent and the card its claims name, with the organization key', async () => {
    const client = await connect(await token({ cardrail_card_id: world.approvalCard, scope: `${READ} ${SPEND}` }));
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'declare_intent')?.inputSchema.required ?? []).not.toContain('cardId');
    const declared = await mcpCaller(client)('declare_intent', {
      summary: 'API credits',
      expectedAmount: 2_500,
      expectedMerchant: 'OpenAI',
    });
    expect(declared).toMatchObject({
      isError: false,
      payload: { cardId: world.approvalCard, agentId: world.agentId, status: 'pending_approval' },
    });
    expect(await mcpCaller(client)('check_spending_power', { cardId: world.plainCard })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope' } },
    });
    await client.close();
    expect(new Set(recorder.sent.map((request) => request.headers.get('authorization')))).toEqual(
      new Set([`Bearer ${world.apiKey}`]),
    );

    const other = await connect(await token({ cardrail_agent_id: world.otherAgentId }));
    expect(await mcpCaller(other)('check_spending_power', { cardId: world.approvalCard })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope' } },
    });
    expect(await mcpCaller(other)('check_spending_power', { cardId: world.otherAgentCard })).toMatchObject({ isError: false });
    await other.close();
  });

  it("refuses a token naming an agent the server's key cannot see, and does nothing else", async () => {
    const elsewhere = new Cardrail({ apiKey: newKey(), baseUrl: world.baseUrl, maxRetries: 0 });
    const customer = await elsewhere.customers.create({ email: 'eve@example.com' });
    const foreignAgent = await elsewhere.agents.create({ customerId: customer.id, name: 'Not yours' });
    const client = await connect(await token({ cardrail_agent_id: foreignAgent.id }));
    const answer = await mcpCaller(client)('check_spending_power', { cardId: world.approvalCard });
    expect(answer).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope', details: { agentId: foreignAgent.id } } },
    });
    expect(answer.payload.error.message).toMatch(/cannot see; nothing was done/);
    expect(recorder.paths()).toEqual([`GET /agents/${foreignAgent.id}`]);
    await client.close();
  });

  it('answers any bad input with a 4xx, never a 500, and keeps serving', async () => {
    const good = await token();
    expect((await post('{"jsonrpc":', good)).status).toBe(400);
    expect((await post('{"jsonrpc":', 'x.y.z')).status).toBe(401);
    expect((await post(call('no_such_tool', {}), good)).json()).toMatchObject({ error: { code: -32602 } });
    expect((await post(listTools, undefined, { authorization: 'Bearer' })).status).toBe(401);
    expect((await post(listTools, undefined, { authorization: 'Bearer  ' })).status).toBe(401);
    const forged = `${(await token()).split('.').slice(0, 2).join('.')}.${'A'.repeat(86)}`;
    expect((await post(listTools, forged)).status).toBe(401);
    expect((await post(listTools, good)).status).toBe(200);
  });
});

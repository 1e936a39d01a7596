// cardrail-mcp over HTTP behind OAuth, its tokens and scopes: the metadata, 401 for a request without a good token
// (whatever the method, on both revisions), 403 insufficient_scope for a request that needs a scope the token lacks,
// and nothing sent to the API before the scope check passed. Clients of both revisions (2025-11-25: initialize,
// answers as server-sent events; 2026-07-28: server/discover, stateless requests), through the SDK's client and raw.
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../src/index.js';
import { createMcpFetchHandler, protectWithOAuth } from '../src/mcp/index.js';
import { unsignedToken } from './support/authorization-server.js';
import { bearerChallenge } from './support/bearer-challenge.js';
import {
  type HttpAnswer,
  LEGACY,
  type OAuthEndpoint,
  READ,
  SPEND,
  approvalPurchase,
  intentsOnApprovalCard,
  listTools,
  oauthEndpointPerFile,
  toolCall,
} from './support/oauth-endpoint.js';
import { FOLLOWS_TASKS } from './support/rpc.js';
import { mcpCaller } from './support/tool-caller.js';

let endpoint: OAuthEndpoint;
oauthEndpointPerFile((started) => {
  endpoint = started;
});

describe('cardrail-mcp over HTTP behind OAuth', () => {
  it('serves its protected resource metadata at the path form and at the root, without a token', async () => {
    for (const url of [endpoint.metadataUrl, `${new URL(endpoint.audience).origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: endpoint.audience,
        authorization_servers: [endpoint.as.issuer],
        scopes_supported: [READ, SPEND],
        bearer_methods_supported: ['header'],
        resource_name: 'Cardrail',
        resource_documentation: 'https://github.com/cardrail/cardrail/blob/main/docs/agents.md#hosting-with-oauth',
      });
    }
    expect((await fetch(endpoint.metadataUrl, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(endpoint.metadataUrl, { method: 'OPTIONS' })).status).toBe(204);
    const post = await fetch(endpoint.metadataUrl, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await fetch(`${endpoint.metadataUrl}/deeper`)).status).toBe(404);
    expect(endpoint.recorder.sent).toEqual([]);
  });

  it('answers every request without a bearer token 401 with resource_metadata and scope, before any other answer', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    };
    const requests: [string, () => Promise<HttpAnswer>][] = [
      ['initialize (2025-11-25)', () => endpoint.post(initialize)],
      ['tools/list (2025-11-25)', () => endpoint.post(listTools)],
      ['Basic credentials', () => endpoint.post(listTools, undefined, { authorization: 'Basic dXNlcjpwYXNz' })],
      ['server/discover (2026-07-28)', () => endpoint.modernRaw('server/discover', {})],
      ['tools/call (2026-07-28)', () => endpoint.modernRaw('tools/call', { name: 'freeze_card', arguments: {} })],
      ['a body that is not JSON', () => endpoint.post('{"jsonrpc":')],
      ['GET, which a client with a token gets 405 for', () => endpoint.post(undefined, undefined, {}, 'GET')],
      ['DELETE', () => endpoint.post(undefined, undefined, {}, 'DELETE')],
    ];
    for (const [what, send] of requests) {
      const answer = await send();
      expect(answer.status, what).toBe(401);
      expect(bearerChallenge(answer.headers.get('www-authenticate')), what).toEqual({
        resource_metadata: endpoint.metadataUrl,
        scope: READ,
      });
    }
    expect((await endpoint.post(listTools)).text).toContain('"error":"unauthorized"');
    expect((await endpoint.post(undefined, await endpoint.token(), {}, 'GET')).status).toBe(405);
    expect(endpoint.recorder.sent).toEqual([]);
  });

  it('refuses a malformed, forged, foreign, expired or incomplete token with 401 invalid_token, and sends nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string | Promise<string>, RegExp][] = [
      ['not a JWT', 'abc.def', /not a well-formed signed JWT/],
      ['characters a token cannot have', 'abc def"', /characters a token cannot have/],
      ['too long', 'a'.repeat(9000), /longer than 8192/],
      ['signed by a key the issuer does not publish', endpoint.token({}, { key: 'stranger' }), /signature does not verify/],
      ['another issuer', endpoint.token({}, { issuer: 'http://127.0.0.1:1/elsewhere' }), /another authorization server \(iss\)/],
      ['another audience', endpoint.token({}, { audience: 'http://127.0.0.1:1/mcp' }), /another resource \(aud\)/],
      ['expired', endpoint.token({}, { expiresIn: -120 }), /expired \(exp\)/],
      ['not valid yet', endpoint.token({}, { notBefore: 600 }), /not valid yet \(nbf\)/],
      ['without exp', endpoint.token({}, { expiresIn: null }), /exp/],
      [
        'unsigned (alg none)',
        unsignedToken({
          iss: endpoint.as.issuer,
          aud: endpoint.audience,
          exp: now + 300,
          cardrail_agent_id: endpoint.world.agentId,
        }),
        /algorithm/,
      ],
      ['an ID token (typ)', endpoint.token({}, { header: { typ: 'id_token+jwt' } }), /not an access token/],
      ['without the agent claim', endpoint.token({ cardrail_agent_id: undefined }), /no cardrail_agent_id claim/],
      [
        'a malformed agent claim',
        endpoint.token({ cardrail_agent_id: '../agents' }),
        /cardrail_agent_id claim must be a Cardrail id/,
      ],
      ['a malformed card claim', endpoint.token({ cardrail_card_id: 42 }), /cardrail_card_id claim must be a Cardrail id/],
      ['a scope claim that is not a string', endpoint.token({ scope: 7 }), /scope claim must be/],
    ];
    for (const [what, bearer, description] of cases) {
      for (const answer of [
        await endpoint.post(listTools, await bearer),
        await endpoint.modernRaw('tools/call', { name: 'check_spending_power', arguments: {} }, await bearer),
      ]) {
        expect(answer.status, what).toBe(401);
        const challenge = bearerChallenge(answer.headers.get('www-authenticate'));
        expect(challenge, what).toMatchObject({ error: 'invalid_token', resource_metadata: endpoint.metadataUrl, scope: READ });
        expect(challenge.error_description, what).toMatch(description);
      }
    }
    expect(endpoint.recorder.sent).toEqual([]);
  });

  it('accepts RFC 9068 access tokens (at+jwt) and plain JWTs, ES256 and RS256, aud as a list', async () => {
    const tokens = [
      endpoint.token(),
      endpoint.token({}, { key: 'rs256' }),
      endpoint.token({}, { header: { typ: 'application/at+jwt' } }),
      endpoint.token({}, { header: { typ: 'JWT' } }),
      endpoint.token({}, { header: { typ: undefined } }),
      endpoint.token({}, { audience: ['https://other.example/api', endpoint.audience] }),
      endpoint.token({ scope: undefined, scp: [READ] }),
    ];
    for (const bearer of tokens) expect((await endpoint.post(listTools, await bearer)).status).toBe(200);
  });

  it('refuses a token without the read scope with 403 insufficient_scope, even to list the tools', async () => {
    const answer = await endpoint.post(listTools, await endpoint.token({ scope: 'openid profile' }));
    expect(answer.status).toBe(403);
    expect(bearerChallenge(answer.headers.get('www-authenticate'))).toMatchObject({
      error: 'insufficient_scope',
      scope: READ,
      resource_metadata: endpoint.metadataUrl,
    });
  });

  it('steps up: a read-only token reads on both revisions; a spending call or tasks/cancel is 403 before anything reaches the API', async () => {
    const readOnly = await endpoint.token({ scope: READ });
    for (const era of ['legacy', 'modern'] as const) {
      const client = await endpoint.connect(readOnly, era);
      expect(
        (await client.listTools()).tools.map((tool) => tool.name),
        era,
      ).toEqual([...TOOL_NAMES]);
      expect(await mcpCaller(client)('check_spending_power', { cardId: endpoint.world.approvalCard }), era).toMatchObject({
        isError: false,
        payload: { cardId: endpoint.world.approvalCard },
      });
      await client.close();
    }
    endpoint.recorder.sent.length = 0;
    const before = await intentsOnApprovalCard(endpoint.world);
    const spending = [
      ['declare_intent', approvalPurchase(endpoint.world)],
      ['get_card_credentials', { cardId: endpoint.world.plainCard }],
      ['freeze_card', { cardId: endpoint.world.plainCard }],
    ] as const;
    const refusals: [string, () => Promise<HttpAnswer>][] = [
      ['tasks/cancel', () => endpoint.modernRaw('tasks/cancel', { taskId: 'ct1.int_x.declare_intent.x' }, readOnly)],
    ];
    for (const [name, args] of spending) {
      refusals.push([`${name} (2025-11-25)`, () => endpoint.post(toolCall(name, args), readOnly)]);
      refusals.push([`${name} (2026-07-28)`, () => endpoint.modernRaw('tools/call', { name, arguments: args }, readOnly)]);
    }
    for (const [what, send] of refusals) {
      const answer = await send();
      expect(answer.status, what).toBe(403);
      expect(bearerChallenge(answer.headers.get('www-authenticate')), what).toMatchObject({
        error: 'insufficient_scope',
        scope: `${READ} ${SPEND}`,
        resource_metadata: endpoint.metadataUrl,
      });
    }
    // A batch hides nothing: the SDK would run one, so none reaches MCP handling, even with a token that may spend.
    for (const bearer of [readOnly, await endpoint.token()]) {
      const batch = await endpoint.post(
        [
          toolCall('check_spending_power', { cardId: endpoint.world.plainCard }),
          toolCall('freeze_card', { cardId: endpoint.world.plainCard }),
        ],
        bearer,
      );
      expect(batch.status).toBe(400);
      expect(batch.answer().error).toMatchObject({ code: -32600, message: expect.stringMatching(/batches/) });
    }
    expect(endpoint.recorder.sent).toEqual([]);
    expect(await intentsOnApprovalCard(endpoint.world)).toBe(before);
    expect((await endpoint.world.api.cards.retrieve(endpoint.world.plainCard)).status).toBe('active');
    // Following a task only reads: a read-only token gets the extension's answer, not a 403.
    const followed = await endpoint.modern('tasks/get', { taskId: 'ct1.int_x.declare_intent.x' }, readOnly, FOLLOWS_TASKS);
    expect(followed.answer.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
  });
});

describe('createMcpFetchHandler behind OAuth, for a host other than node:http', () => {
  it('is the endpoint of a worker: the metadata beside it, a token needed, and no second authenticator', async () => {
    const served = protectWithOAuth(
      { issuer: endpoint.as.issuer, audience: endpoint.audience },
      { apiKey: endpoint.world.apiKey, baseUrl: endpoint.world.baseUrl },
    );
    const mcp = createMcpFetchHandler(served);
    const worker = (request: Request) => served.resourceServer.metadataResponse(request) ?? mcp(request);
    expect((await worker(new Request(endpoint.metadataUrl))).status).toBe(200);
    const list = (bearer?: string) =>
      worker(
        new Request(endpoint.audience, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': LEGACY,
            ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
          },
          body: JSON.stringify(listTools),
        }),
      );
    expect((await list()).status).toBe(401);
    expect((await list(await endpoint.token({ scope: READ }))).status).toBe(200);
    expect(() => createMcpFetchHandler(served, { authenticate: async () => new Response(null, { status: 401 }) })).toThrow(
      /authenticated by their resource server/,
    );
    await mcp.close();
  });
});

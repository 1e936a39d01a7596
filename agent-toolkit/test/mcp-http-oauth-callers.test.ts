// cardrail-mcp over HTTP behind OAuth, its callers: a good token acts for the agent and card its claims name (on both
// revisions), an agent the server's key cannot see is refused, the requestState and task ids a caller holds are bound
// to its token's subject, bad input is a 4xx, and behind a TLS proxy the audience's host and origin are the server's
// (whatever other hosts and pages the operator names) and clients reach it through the proxy with tokens for the audience.
import { request as httpRequest } from 'node:http';
import { Cardrail } from '@cardrail/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TOOL_NAMES } from '../src/index.js';
import { bearerChallenge } from './support/bearer-challenge.js';
import {
  approvalPurchase,
  intentsOnApprovalCard,
  listTools,
  type OAuthEndpoint,
  oauthEndpointPerFile,
  startOAuthEndpoint,
  toolCall,
} from './support/oauth-endpoint.js';
import { type ReverseProxy, startReverseProxy } from './support/reverse-proxy.js';
import { FOLLOWS_TASKS, REVISION } from './support/rpc.js';
import { mcpCaller } from './support/tool-caller.js';
import { newKey } from './support/world.js';

let endpoint: OAuthEndpoint;
oauthEndpointPerFile((started) => {
  endpoint = started;
});

const SHOWS_URLS = { elicitation: { url: {} } };

describe('cardrail-mcp over HTTP behind OAuth, for each caller', () => {
  it('acts as the agent and the card its claims name, with the organization key, on both revisions', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const client = await endpoint.connect(await endpoint.token({ cardrail_card_id: endpoint.world.approvalCard }), era);
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'declare_intent')?.inputSchema.required ?? [], era).not.toContain('cardId');
      const checked = await mcpCaller(client)('check_spending_power', {});
      expect(checked, era).toMatchObject({ isError: false, payload: { cardId: endpoint.world.approvalCard } });
      expect(await mcpCaller(client)('check_spending_power', { cardId: endpoint.world.plainCard }), era).toMatchObject({
        isError: true,
        payload: { error: { code: 'out_of_scope' } },
      });
      await client.close();
    }
    const declared = await endpoint.modern(
      'tools/call',
      { name: 'declare_intent', arguments: approvalPurchase(endpoint.world) },
      await endpoint.token(),
    );
    expect(declared.answer.result.structuredContent).toMatchObject({
      cardId: endpoint.world.approvalCard,
      agentId: endpoint.world.agentId,
      status: 'pending_approval',
    });
    expect(new Set(endpoint.recorder.sent.map((request) => request.headers.get('authorization')))).toEqual(
      new Set([`Bearer ${endpoint.world.apiKey}`]),
    );

    const other = await endpoint.connect(await endpoint.token({ cardrail_agent_id: endpoint.world.otherAgentId }), 'modern');
    expect(await mcpCaller(other)('check_spending_power', { cardId: endpoint.world.approvalCard })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope' } },
    });
    expect(await mcpCaller(other)('check_spending_power', { cardId: endpoint.world.otherAgentCard })).toMatchObject({
      isError: false,
    });
    await other.close();
  });

  it("refuses a token naming an agent the server's key cannot see, and does nothing else", async () => {
    const elsewhere = new Cardrail({ apiKey: newKey(), baseUrl: endpoint.world.baseUrl, maxRetries: 0 });
    const customer = await elsewhere.customers.create({ email: 'eve@example.com' });
    const foreignAgent = await elsewhere.agents.create({ customerId: customer.id, name: 'Not yours' });
    const client = await endpoint.connect(await endpoint.token({ cardrail_agent_id: foreignAgent.id }), 'modern');
    const answer = await mcpCaller(client)('check_spending_power', { cardId: endpoint.world.approvalCard });
    expect(answer).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope', details: { agentId: foreignAgent.id } } },
    });
    expect(answer.payload.error.message).toMatch(/cannot see; nothing was done/);
    expect(endpoint.recorder.paths()).toEqual([`GET /agents/${foreignAgent.id}`]);
    await client.close();
  });

  it("binds a task id to the token's subject: another person's token, even for the same agent, cannot follow or cancel it", async () => {
    const alice = await endpoint.token({ sub: 'alice' });
    const bob = await endpoint.token({ sub: 'bob' });
    const declared = await endpoint.modern(
      'tools/call',
      { name: 'declare_intent', arguments: approvalPurchase(endpoint.world) },
      alice,
      FOLLOWS_TASKS,
    );
    expect(declared.answer.result).toMatchObject({ resultType: 'task', status: 'working' });
    const { taskId } = declared.answer.result as { taskId: string };
    const intentId = (declared.answer.result.statusMessage as string).match(/intent (int_\w+)/)?.[1] as string;

    expect((await endpoint.modern('tasks/get', { taskId }, alice, FOLLOWS_TASKS)).answer.result).toMatchObject({
      status: 'working',
    });
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const { answer } = await endpoint.modern(method, { taskId }, bob, FOLLOWS_TASKS);
      expect(answer.error, method).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    }
    expect((await endpoint.world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
    // The same person with a new token (a refresh) still follows it.
    const refreshed = await endpoint.token({ sub: 'alice' });
    expect((await endpoint.modern('tasks/get', { taskId }, refreshed, FOLLOWS_TASKS)).answer.result).toMatchObject({
      status: 'working',
    });
  });

  it("binds a requestState to the token's subject: another person's retry is refused and declares nothing", async () => {
    const alice = await endpoint.token({ sub: 'alice' });
    const args = approvalPurchase(endpoint.world);
    const first = await endpoint.modern('tools/call', { name: 'declare_intent', arguments: args }, alice, SHOWS_URLS);
    expect(first.answer.result).toMatchObject({ resultType: 'input_required' });
    const { requestState } = first.answer.result as { requestState: string };
    const before = await intentsOnApprovalCard(endpoint.world);
    const retry = (bearer: string) =>
      endpoint.modern(
        'tools/call',
        { name: 'declare_intent', arguments: args, inputResponses: { approval: { action: 'decline' } }, requestState },
        bearer,
        SHOWS_URLS,
      );
    const theirs = await retry(await endpoint.token({ sub: 'bob' }));
    expect(theirs.status).toBe(200);
    expect(theirs.answer.error).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    const own = await retry(alice);
    expect(own.answer.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'pending_approval' } });
    expect(await intentsOnApprovalCard(endpoint.world)).toBe(before);
  });

  it('answers any bad input with a 4xx, never a 500, and keeps serving', async () => {
    const good = await endpoint.token();
    expect((await endpoint.post('{"jsonrpc":', good)).status).toBe(400);
    expect((await endpoint.post('{"jsonrpc":', 'x.y.z')).status).toBe(401);
    expect((await endpoint.post(toolCall('no_such_tool', {}), good)).answer()).toMatchObject({ error: { code: -32602 } });
    expect((await endpoint.post(listTools, undefined, { authorization: 'Bearer' })).status).toBe(401);
    expect((await endpoint.post(listTools, undefined, { authorization: 'Bearer  ' })).status).toBe(401);
    const forged = `${(await endpoint.token()).split('.').slice(0, 2).join('.')}.${'A'.repeat(86)}`;
    expect((await endpoint.post(listTools, forged)).status).toBe(401);
    expect((await endpoint.post(listTools, good)).status).toBe(200);
  });
});

describe('cardrail-mcp behind OAuth and a TLS proxy', () => {
  const AUDIENCE = 'https://mcp.example.com/mcp';
  const PUBLIC_METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
  let proxied: OAuthEndpoint;
  let named: OAuthEndpoint;
  let proxy: ReverseProxy;
  beforeAll(async () => {
    proxied = await startOAuthEndpoint({ audience: AUDIENCE });
    // An operator who names other hosts and pages (a load balancer's health check, an app) keeps the audience's.
    named = await startOAuthEndpoint(
      { audience: AUDIENCE },
      { allowedHosts: ['lb.internal'], allowedOrigins: ['https://app.example'] },
    );
    proxy = await startReverseProxy(proxied.server.url, 'mcp.example.com');
  });
  afterAll(async () => {
    await proxy?.close();
    await named?.close();
    await proxied?.close();
  });

  /** A request as the proxy forwards it: to 127.0.0.1, with the public Host (fetch does not let a caller set Host). */
  function forwarded(
    to: OAuthEndpoint,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; body: string }> {
    const url = new URL(to.server.url);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  it("takes the audience's host and the pages of its origin as the server's own, and no others", async () => {
    const bearer = await proxied.token();
    const list = JSON.stringify(listTools);
    const host = { host: 'mcp.example.com', authorization: `Bearer ${bearer}`, 'mcp-protocol-version': '2025-11-25' };
    // The page's origin is https; the request reaches the server as http: only the audience makes it the server's.
    expect(await forwarded(proxied, '/mcp', { ...host, origin: 'https://mcp.example.com' }, list)).toMatchObject({ status: 200 });
    expect(await forwarded(proxied, '/mcp', { ...host, origin: 'https://evil.example' }, list)).toMatchObject({ status: 403 });
    expect(await forwarded(proxied, '/mcp', { ...host, host: 'evil.example' }, list)).toMatchObject({ status: 403 });
    const metadata = await forwarded(proxied, '/.well-known/oauth-protected-resource/mcp', { host: 'mcp.example.com' });
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body)).toMatchObject({ resource: AUDIENCE, authorization_servers: [proxied.as.issuer] });
    // A token for the loopback URL the proxy forwards to is not one for the public endpoint.
    const loopbackToken = await proxied.token({}, { audience: proxied.server.url });
    const refused = await forwarded(proxied, '/mcp', { ...host, authorization: `Bearer ${loopbackToken}` }, list);
    expect(refused.status).toBe(401);
  });

  it("keeps the audience's host and origin beside the hosts and pages an operator names", async () => {
    const bearer = await named.token();
    const list = JSON.stringify(listTools);
    const host = { host: 'mcp.example.com', authorization: `Bearer ${bearer}`, 'mcp-protocol-version': '2025-11-25' };
    const answers = {
      audience: await forwarded(named, '/mcp', { ...host, origin: 'https://mcp.example.com' }, list),
      namedHost: await forwarded(named, '/mcp', { ...host, host: 'lb.internal' }, list),
      namedPage: await forwarded(named, '/mcp', { ...host, origin: 'https://app.example' }, list),
      // Naming hosts replaces the loopback defaults: a page on localhost is another origin now.
      loopbackPage: await forwarded(named, '/mcp', { ...host, origin: 'http://localhost:6274' }, list),
      otherHost: await forwarded(named, '/mcp', { ...host, host: 'evil.example' }, list),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, answer]) => [what, answer.status]))).toEqual({
      audience: 200,
      namedHost: 200,
      namedPage: 200,
      loopbackPage: 403,
      otherHost: 403,
    });
  });

  it('serves MCP clients of both revisions through a reverse proxy: tokens for the audience, the metadata naming it', async () => {
    const endpoint = new URL('/mcp', proxy.origin);
    const anonymous = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(bearerChallenge(anonymous.headers.get('www-authenticate'))).toEqual({
      resource_metadata: PUBLIC_METADATA,
      scope: 'cardrail:read',
    });
    // What the client reads from the public metadata URL, through the proxy: the audience, not the loopback address.
    const metadata = await fetch(new URL(new URL(PUBLIC_METADATA).pathname, proxy.origin));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: AUDIENCE, authorization_servers: [proxied.as.issuer] });

    const bearer = await proxied.token({ cardrail_card_id: proxied.world.approvalCard });
    for (const era of ['legacy', 'modern'] as const) {
      const client = new Client(
        { name: 'behind-a-proxy', version: '0.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: REVISION } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }),
      );
      expect(client.getProtocolEra()).toBe(era);
      expect(
        (await client.listTools()).tools.map((tool) => tool.name),
        era,
      ).toEqual([...TOOL_NAMES]);
      expect(await mcpCaller(client)('check_spending_power', {}), era).toMatchObject({
        isError: false,
        payload: { cardId: proxied.world.approvalCard },
      });
      await client.close();
    }
    expect(proxied.recorder.sent.length).toBeGreaterThan(0);
  });
});

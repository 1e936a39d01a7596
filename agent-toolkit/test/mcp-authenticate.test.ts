// The seam an authenticator (e.g. an OAuth resource server) plugs into: run before any MCP handling, it answers a
// response to send as it is, or the context the request acts for, chosen per caller, with per-tool checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createMcpFetchHandler, type McpRequestAuthenticator } from '../src/mcp/index.js';
import { recordingFetch } from './support/recording-fetch.js';
import { modernRpc } from './support/rpc.js';
import { startWorld, type World } from './support/world.js';

const URL_ = 'http://127.0.0.1:4020/mcp';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

describe('createMcpFetchHandler with an authenticator', () => {
  it('answers its refusals before anything is sent, and runs each caller with its own toolkit and checks', async () => {
    const sent = recordingFetch();
    const toolkitFor = (agentId: string) =>
      createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId, clientOptions: { fetch: sent.fetch } });
    const seen: { method: string | undefined; tool?: string; readOnly?: boolean }[] = [];
    const authenticate: McpRequestAuthenticator = async (request, call) => {
      seen.push({ method: call.method, tool: call.tool?.name, readOnly: call.tool?.readOnly });
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      if (token === undefined) return new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="test"' } });
      // "reader" may only call read-only tools; "other" acts for the other agent.
      if (token === 'reader' && call.tool !== undefined && !call.tool.readOnly) {
        return new Response(null, { status: 403, headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' } });
      }
      const agentId = token === 'other' ? world.otherAgentId : world.agentId;
      return { toolkit: toolkitFor(agentId), subject: token, authInfo: { token, clientId: token, scopes: [] } };
    };
    const handler = createMcpFetchHandler(toolkitFor(world.agentId), { authenticate });
    const call = (token: string | undefined, name: string, args: Record<string, unknown>) =>
      modernRpc(
        URL_,
        'tools/call',
        { name, arguments: args },
        {
          fetch: handler,
          headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
        },
      );

    const before = sent.paths().length;
    const unauthenticated = await handler(
      new Request(URL_, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
    );
    expect(unauthenticated.status).toBe(401);
    const refused = await handler(
      new Request(URL_, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer reader' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'freeze_card', arguments: { cardId: world.plainCard } },
        }),
      }),
    );
    expect(refused.status).toBe(403);
    expect(sent.paths().length).toBe(before);
    expect(seen.at(-1)).toEqual({ method: 'tools/call', tool: 'freeze_card', readOnly: false });
    // A batch would carry calls the authenticator is not told about: refused once authenticated, nothing run.
    const batch = await handler(
      new Request(URL_, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer reader', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify([
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'freeze_card', arguments: { cardId: world.plainCard } },
          },
        ]),
      }),
    );
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
    expect(sent.paths().length).toBe(before);

    const read = await call('reader', 'check_spending_power', { cardId: world.approvalCard });
    expect(read.answer.result.structuredContent).toMatchObject({ cardId: world.approvalCard });
    const theirs = await call('other', 'check_spending_power', { cardId: world.approvalCard });
    expect(JSON.parse(theirs.answer.result.content[0].text)).toMatchObject({ error: { code: 'out_of_scope' } });
    await handler.close();
  });
});

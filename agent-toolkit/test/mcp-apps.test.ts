// The MCP App approval card, server side: which clients are offered it (tools/list, resources/read), what a tool
// that leaves an intent waiting answers them (the intent, and the card's decision capability in `_meta` only), what
// the card reads, and the agent's wait for the card's decision. The refusals of the threat model:
// mcp-apps-refusals.test.ts; the card itself, in Chromium: mcp-apps-card.test.ts.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createCardrailMcpServer } from '../src/mcp/index.js';
import { appsRpc, CARD, RENDERS_APPS, SECRET, UI } from './support/apps-rpc.js';
import { TASKS } from './support/rpc.js';
import { startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

const { handlerFor, rpc, call, purchase, declared } = appsRpc(() => world);

describe('who is offered the approval card', () => {
  it('a client that renders MCP Apps: declare_intent links the card, the card tools are app only, the card is a resource', async () => {
    const handler = handlerFor();
    const { tools } = (await rpc(handler, 'tools/list', {})).result as { tools: any[] };
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.declare_intent._meta).toMatchObject({
      ui: { resourceUri: 'ui://cardrail/approval-card' },
      'ui/resourceUri': 'ui://cardrail/approval-card',
      'dev.cardrail/mayNeedPerson': true,
    });
    expect(byName.declare_intent._meta.ui).not.toHaveProperty('visibility');
    for (const name of ['approval_card_read', 'approval_card_decide']) {
      expect(byName[name]._meta.ui).toEqual({ resourceUri: 'ui://cardrail/approval-card', visibility: ['app'] });
    }
    // The reason's limit and the id's schema are the spec's; the decision and the capability are required.
    expect(byName.approval_card_decide.inputSchema).toMatchObject({
      required: ['intentId', 'decision', 'capability'],
      properties: { reason: { type: 'string', maxLength: 500 }, decision: { enum: ['approve', 'reject'] } },
    });
    // Only the tool that may need a person links the card.
    expect(tools.filter((tool) => tool._meta?.ui !== undefined).map((tool) => tool.name)).toEqual([
      'declare_intent',
      'approval_card_read',
      'approval_card_decide',
    ]);
    const read = await rpc(handler, 'resources/read', { uri: 'ui://cardrail/approval-card' });
    const [content] = read.result.contents;
    expect(content).toMatchObject({ uri: 'ui://cardrail/approval-card', mimeType: 'text/html;profile=mcp-app' });
    expect(content._meta.ui).toEqual({ prefersBorder: true });
    expect(content.text).toMatch(/^<!doctype html>/);
    expect(content.text).toContain('<script type="module">');
    await handler.close();
  });

  it('any other client (none, another MIME type, or --no-apps) sees neither the link nor the card tools', async () => {
    for (const [handler, capabilities] of [
      [handlerFor(), {}],
      [handlerFor(), { extensions: { [UI]: { mimeTypes: ['text/uri-list'] } } }],
      [handlerFor({ approval: { apps: false } }), RENDERS_APPS],
    ] as const) {
      const { tools } = (await rpc(handler, 'tools/list', {}, capabilities)).result as { tools: any[] };
      expect(tools.map((tool) => tool.name)).not.toContain('approval_card_decide');
      expect(tools.find((tool) => tool.name === 'declare_intent')._meta).toEqual({ 'dev.cardrail/mayNeedPerson': true });
      await handler.close();
    }
  });

  it('a 2025-11-25 client that declared MCP Apps at initialize is offered the card too', async () => {
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const server = createCardrailMcpServer(toolkit, { stateSecret: SECRET });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'legacy-host', version: '0.0.0' }, { capabilities: RENDERS_APPS });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'declare_intent')?._meta).toMatchObject({
      ui: { resourceUri: 'ui://cardrail/approval-card' },
    });
    const result = await client.callTool({ name: 'declare_intent', arguments: purchase() });
    const meta = result._meta?.[CARD] as { intentId: string; capability: string };
    expect(meta.capability).toMatch(/^dc1\.int_\w+\.[0-9a-z]+\.[\w-]+$/);
    // The card decides through the same connection; the host names itself as the place.
    const decided = await client.callTool({
      name: 'approval_card_decide',
      arguments: { intentId: meta.intentId, decision: 'approve', capability: meta.capability },
    });
    expect(decided.structuredContent).toMatchObject({
      status: 'pending',
      decidedBy: { name: null, via: 'the approval card in legacy-host' },
    });
    await client.close();
  });
});

describe('declare_intent for a client that renders MCP Apps', () => {
  it('answers the intent with a note; the capability is in _meta only, never in what the model reads', async () => {
    const handler = handlerFor();
    // Also declaring tasks and URL elicitation: the card goes first.
    const capabilities = { ...RENDERS_APPS, elicitation: { url: {} }, extensions: { ...RENDERS_APPS.extensions, [TASKS]: {} } };
    const answer = await call(handler, 'declare_intent', purchase(), capabilities);
    expect(answer.result.resultType).toBe('complete');
    const { structuredContent, content, _meta } = answer.result;
    expect(structuredContent).toMatchObject({ status: 'pending_approval' });
    const meta = _meta[CARD];
    expect(meta).toEqual({ intentId: structuredContent.id, capability: expect.stringMatching(/^dc1\./) });
    const said = (content as { text: string }[]).map((block) => block.text);
    expect(said[1]).toBe('The client shows the person an approval card with this purchase, where they approve or reject it.');
    expect(said[2]).toMatch(/^A person must approve intent int_\w+ .* Then call wait_for_approval/);
    expect(JSON.stringify({ content, structuredContent })).not.toContain(meta.capability);
    expect(JSON.stringify({ content, structuredContent })).not.toContain(meta.capability.split('.')[3]);
    await handler.close();
  });

  it('an intent that needs nobody has no capability: the card shows it as it is', async () => {
    const handler = handlerFor();
    const answer = await call(handler, 'declare_intent', { ...purchase(), cardId: world.plainCard });
    expect(answer.result.structuredContent).toMatchObject({ status: 'pending' });
    expect(answer.result._meta?.[CARD]).toBeUndefined();
    await handler.close();
  });
});

describe('the card’s reads', () => {
  it('say what a person decides on, and follow a decision made elsewhere while they wait', async () => {
    const handler = handlerFor();
    // A card of its own: an approved intent on another would let this payment through (`approve`).
    const cardId = (
      await world.api.cards.create({
        customerId: world.customerId,
        agentId: world.agentId,
        type: 'virtual',
        usage: 'multi',
        policy: { requireApproval: true, limits: { perDay: 50_000 } },
      })
    ).id;
    const answer = await call(handler, 'declare_intent', { ...purchase(), cardId });
    const { intentId, capability } = answer.result._meta[CARD] as { intentId: string; capability: string };
    const first = (await call(handler, 'approval_card_read', { intentId, capability })).result.structuredContent;
    expect(first).toMatchObject({
      intent: { id: intentId, status: 'pending_approval', decidedBy: null },
      agent: { id: world.agentId, name: 'Buyer', status: 'active' },
      owner: { id: world.customerId, name: 'ada@example.com', email: 'ada@example.com' },
      card: { id: cardId, last4: expect.stringMatching(/^\d{4}$/), status: 'active' },
      spendable: { remainingDay: 50_000, remainingMonth: null, available: expect.any(Number) },
      evaluation: { decision: 'review', reasons: [{ code: 'approval_required', message: expect.any(String) }] },
      reasonMaxLength: 500,
    });
    // A person approves on the dashboard while the card waits: the read answers with their decision.
    const waiting = call(handler, 'approval_card_read', { intentId, capability, waitSeconds: 25 });
    await world.api.intents.approve(intentId, { decidedBy: { name: 'Ada Lovelace', via: 'the dashboard' } });
    const after = (await waiting).result.structuredContent;
    expect(after.intent).toMatchObject({ status: 'pending', decidedBy: { name: 'Ada Lovelace', via: 'the dashboard' } });
    await handler.close();
  });
});

describe('the agent’s waiting call', () => {
  it('wait_for_approval answers the decision the card made', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const waiting = call(handler, 'wait_for_approval', { intentId, timeoutSeconds: 60 });
    await call(handler, 'approval_card_decide', { intentId, decision: 'reject', capability, reason: 'Not this month' });
    const answer = await waiting;
    expect(answer.result.structuredContent).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Not this month',
      decidedBy: { via: 'the approval card in raw-test' },
    });
    expect(answer.result.content.at(-1).text).toMatch(/^A person rejected intent int_\w+ .*: Not this month\. Do not pay/);
    await handler.close();
  });
});

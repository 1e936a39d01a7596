// The MCP App approval card, server side: which clients are offered it (tools/list, resources/read), what a tool
// that leaves an intent waiting answers them (the intent, and the card's decision capability in `_meta` only), and
// the threat model of docs/agents.md: a decision needs the capability the card's view holds, so a call from the
// model's side (without it, with another intent's, replayed, forged, expired, for another organization's intent) is
// refused and changes nothing. The card itself, in Chromium: mcp-apps-card.test.ts.
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createCardrailMcpServer, createMcpFetchHandler, type McpFetchHandlerOptions } from '../src/mcp/index.js';
import { DecisionCapabilities } from '../src/mcp/apps/decision-capability.js';
import { API_KEY_SUBJECT, bindingOf } from '../src/mcp/auth-context.js';
import { modernRpc, type RpcMessage, TASKS } from './support/rpc.js';
import { newKey, startWorld, type World } from './support/world.js';
import { Cardrail } from '@cardrail/sdk';

const URL_ = 'http://127.0.0.1:4020/mcp';
const SECRET = 'a-state-secret-for-this-test-only-32b';
const UI = 'io.modelcontextprotocol/ui';
const RENDERS_APPS = { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
const CARD = 'dev.cardrail/approvalCard';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

function handlerFor(options: McpFetchHandlerOptions = {}) {
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
  return createMcpFetchHandler(toolkit, { stateSecret: SECRET, ...options });
}

type Handler = ReturnType<typeof handlerFor>;

async function rpc(
  handler: Handler,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = RENDERS_APPS,
) {
  const { status, answer } = await modernRpc(URL_, method, params, { capabilities, fetch: handler });
  expect(status).toBe(200);
  return answer;
}

const call = (handler: Handler, name: string, args: Record<string, unknown>, capabilities?: Record<string, unknown>) =>
  rpc(handler, 'tools/call', { name, arguments: args }, capabilities);

const purchase = () => ({
  cardId: world.approvalCard,
  summary: `GPU credits ${Math.random().toString(36).slice(2, 7)}`,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

/** declare_intent on a card that needs a person, from a client that renders MCP Apps: the intent and its capability. */
async function declared(handler: Handler) {
  const answer = await call(handler, 'declare_intent', purchase());
  const meta = answer.result._meta?.[CARD] as { intentId: string; capability: string };
  return { answer, intentId: meta.intentId, capability: meta.capability };
}

const errorOf = (answer: RpcMessage) => {
  expect(answer.result.isError).toBe(true);
  return JSON.parse(answer.result.content[0].text).error as { code: string; message: string; details?: any };
};
const statusOf = async (intentId: string) => (await world.api.intents.retrieve(intentId)).status;

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

describe('only a person decides: a decision from the model side is refused and changes nothing', () => {
  it('from a client that does not render MCP Apps, the card tools do not exist (-32602)', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      const answer = await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability }, capabilities);
      expect(answer.error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/^Unknown tool approval_card_decide; the tools are check_spending_power/),
      });
      expect(answer.error?.message.split('the tools are ')[1]).not.toContain('approval_card');
    }
    expect(await statusOf(intentId)).toBe('pending_approval');
    await handler.close();
  });

  it('without the capability, with another intent’s, a forged or another server’s one: refused, nothing read or decided', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const other = await declared(handler);
    const [prefix, id, expiry, mac] = capability.split('.') as [string, string, string, string];
    const tampered = `${prefix}.${id}.${(Number.parseInt(expiry, 36) + 60_000).toString(36)}.${mac}`;
    const strangers = handlerFor({ stateSecret: 'another-state-secret-of-32-bytes-or-more' });
    const theirs = await declared(strangers);
    const cases: [Record<string, unknown>, string][] = [
      [{ intentId, decision: 'approve' }, 'invalid_input'],
      [{ intentId, decision: 'approve', capability: '' }, 'invalid_input'],
      [{ intentId, decision: 'approve', capability: other.capability }, 'other_intent'],
      [{ intentId, decision: 'approve', capability: tampered }, 'forged'],
      [{ intentId, decision: 'approve', capability: 'dc1.nope' }, 'malformed'],
      [{ intentId: theirs.intentId, decision: 'approve', capability: theirs.capability }, 'forged'],
    ];
    for (const [args, why] of cases) {
      const error = errorOf(await call(handler, 'approval_card_decide', args));
      if (why === 'invalid_input') expect(error.code).toBe('invalid_input');
      else {
        expect(error).toMatchObject({ code: 'capability_required', details: { reason: why } });
        expect(error.message).toMatch(/^approval_card_decide is the approval card's, where a person decides/);
      }
      // Reading is refused the same way.
      if (why !== 'invalid_input') {
        const read = errorOf(await call(handler, 'approval_card_read', { intentId: args.intentId, capability: args.capability }));
        expect(read).toMatchObject({ code: 'capability_required', details: { reason: why } });
      }
    }
    expect(await statusOf(intentId)).toBe('pending_approval');
    expect(await statusOf(theirs.intentId)).toBe('pending_approval');
    await strangers.close();
    await handler.close();
  });

  it('replayed after use: the second decision finds the intent decided and changes nothing', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const first = await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability });
    expect(first.result.structuredContent).toMatchObject({
      status: 'pending',
      decidedBy: { via: 'the approval card in raw-test' },
    });
    for (const decision of ['reject', 'approve']) {
      const error = errorOf(await call(handler, 'approval_card_decide', { intentId, decision, capability }));
      expect(error).toMatchObject({ code: 'invalid_state', details: { intentId, status: 'pending' } });
      expect(error.message).toBe(
        `Intent ${intentId} is already approved by a person via the approval card in raw-test: nothing was changed.`,
      );
    }
    const intent = await world.api.intents.retrieve(intentId);
    expect(intent).toMatchObject({ status: 'pending', rejectedAt: null });
    // The card can still read it, to show what became of it.
    const read = await call(handler, 'approval_card_read', { intentId, capability });
    expect(read.result.structuredContent.intent).toMatchObject({ id: intentId, status: 'pending' });
    await handler.close();
  });

  it("another organization's intent is refused by the API, even with a capability signed by this server", async () => {
    const handler = handlerFor();
    const theirKey = newKey();
    const them = new Cardrail({ apiKey: theirKey, baseUrl: world.baseUrl, maxRetries: 0 });
    const owner = await them.customers.create({ email: 'grace@example.com' });
    const agent = await them.agents.create({ customerId: owner.id, name: 'Theirs' });
    const card = await them.cards.create({
      customerId: owner.id,
      agentId: agent.id,
      type: 'virtual',
      usage: 'multi',
      policy: { requireApproval: true },
    });
    const intent = await them.intents.create({ cardId: card.id, summary: 'Theirs', expectedAmount: 1_000 });
    // What a leaked secret would let someone sign: the capability is sound, the intent is not this organization's.
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const capability = await signer.mint({ intentId: intent.id, expiresAt: Date.now() + 3_600_000 });
    const error = errorOf(await call(handler, 'approval_card_decide', { intentId: intent.id, decision: 'approve', capability }));
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect((await them.intents.retrieve(intent.id)).status).toBe('pending_approval');
    await handler.close();
  });

  it("another agent's intent is refused by the toolkit's scope, even with a capability signed by this server", async () => {
    const handler = handlerFor();
    const intent = await world.api.intents.create({ cardId: world.otherAgentCard, summary: 'Not yours', expectedAmount: 1_000 });
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const capability = await signer.mint({ intentId: intent.id, expiresAt: Date.now() + 3_600_000 });
    for (const [name, args] of [
      ['approval_card_decide', { intentId: intent.id, decision: 'approve', capability }],
      ['approval_card_read', { intentId: intent.id, capability }],
    ] as const) {
      expect(errorOf(await call(handler, name, args))).toMatchObject({ code: 'out_of_scope', details: { intentId: intent.id } });
    }
    expect((await world.api.intents.retrieve(intent.id)).status).toBe(intent.status);
    await handler.close();
  });

  it('a reason over the spec’s maximum is refused naming the maximum; a reason with an approval too', async () => {
    const handler = handlerFor();
    const { intentId, capability } = await declared(handler);
    const long = errorOf(
      await call(handler, 'approval_card_decide', { intentId, decision: 'reject', capability, reason: 'x'.repeat(501) }),
    );
    expect(long).toMatchObject({
      code: 'invalid_input',
      details: { field: 'reason', reason: 'must be at most 500 characters long' },
    });
    const withApproval = errorOf(
      await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability, reason: 'ok' }),
    );
    expect(withApproval).toMatchObject({ code: 'invalid_input', details: { field: 'reason' } });
    expect(await statusOf(intentId)).toBe('pending_approval');
    // 500 is taken.
    const rejected = await call(handler, 'approval_card_decide', {
      intentId,
      decision: 'reject',
      capability,
      reason: 'y'.repeat(500),
    });
    expect(rejected.result.structuredContent).toMatchObject({ status: 'rejected', rejectionReason: 'y'.repeat(500) });
    await handler.close();
  });

  it('an expired capability decides nothing, and still reads what became of its intent', async () => {
    const handler = handlerFor();
    const { intentId } = await declared(handler);
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const signer = new DecisionCapabilities(new TextEncoder().encode(SECRET), bindingOf({ toolkit, subject: API_KEY_SUBJECT }));
    const expired = await signer.mint({ intentId, expiresAt: Date.now() - 1_000 });
    const error = errorOf(await call(handler, 'approval_card_decide', { intentId, decision: 'approve', capability: expired }));
    expect(error).toMatchObject({ code: 'capability_required', details: { reason: 'expired' } });
    const read = await call(handler, 'approval_card_read', { intentId, capability: expired });
    expect(read.result.structuredContent.intent).toMatchObject({ id: intentId, status: 'pending_approval' });
    expect(await statusOf(intentId)).toBe('pending_approval');
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

// A person's approval over MCP 2026-07-28: declare_intent on a card that needs a person answers `input_required` with
// a URL elicitation of the approval page, the intent in a signed requestState; the client's retry answers the
// decision. Through the SDK's own client (auto-fulfilment), and raw, to see the wire and try bad state. In process:
// the client's fetch is the handler's.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { createMcpFetchHandler, type McpFetchHandlerOptions } from '../src/mcp/index.js';
import { modernRpc, type RpcMessage } from './support/rpc.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

const URL_ = 'http://127.0.0.1:4020/mcp';
const SECRET = 'a-state-secret-for-this-test-only-32b';
const SHOWS_URLS = { elicitation: { url: {} } };

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

function handlerFor(options: McpFetchHandlerOptions = {}, agentId = world.agentId) {
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId });
  return createMcpFetchHandler(toolkit, { stateSecret: SECRET, ...options });
}

const purchase = () => ({
  cardId: world.approvalCard,
  summary: `GPU credits ${Math.random().toString(36).slice(2, 7)}`,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

const intentsOnCard = async () => (await world.api.intents.list({ cardId: world.approvalCard, limit: 100 })).data.length;

/** Round 1 of a raw 2026-07-28 call of declare_intent by a client that shows URLs. */
async function askForPage(handler: ReturnType<typeof handlerFor>, args: Record<string, unknown>) {
  const { status, answer } = await modernRpc(
    URL_,
    'tools/call',
    { name: 'declare_intent', arguments: args },
    {
      capabilities: SHOWS_URLS,
      fetch: handler,
    },
  );
  expect(status).toBe(200);
  return answer.result as {
    resultType: string;
    inputRequests: Record<string, { method: string; params: Record<string, unknown> }>;
    requestState: string;
  };
}

/** The intent whose approval page a request for input shows. */
function intentOfPage(asked: Awaited<ReturnType<typeof askForPage>>): string {
  const url = String(asked.inputRequests.approval?.params.url);
  return url.match(/approvals\/(int_\w+)/)?.[1] as string;
}

const retry = (handler: ReturnType<typeof handlerFor>, params: Record<string, unknown>) =>
  modernRpc(URL_, 'tools/call', params, { capabilities: SHOWS_URLS, fetch: handler });

const toolText = (answer: RpcMessage) => (answer.result.content as { text: string }[]).map((block) => block.text);

describe('declare_intent for a 2026-07-28 client that shows URLs', () => {
  it("asks with input_required; the SDK's client shows the page, retries, and gets the decided intent", async () => {
    const handler = handlerFor();
    const shown: { url?: string; elicitationId?: string; mode?: string }[] = [];
    const client = new Client(
      { name: 'modern-client', version: '0.0.0' },
      { capabilities: SHOWS_URLS, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { url?: string; elicitationId?: string; mode?: string };
      shown.push(params);
      // The person opens the page after the client said so, and approves there.
      const intentId = params.url?.match(/approvals\/(int_\w+)/)?.[1] as string;
      setTimeout(() => void world.api.intents.approve(intentId), 200);
      return { action: 'accept' };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(URL_), { fetch: (url, init) => handler(new Request(url, init)) }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    const before = await intentsOnCard();

    const declared = await mcpCaller(client)('declare_intent', purchase());
    expect(declared.payload).toMatchObject({ status: 'pending', approvedBy: 'api' });
    expect(shown).toEqual([
      { mode: 'url', url: declared.payload.approvalUrl, message: expect.stringContaining(declared.payload.id) },
    ]);
    expect(declared.said).toEqual([
      'The person was shown the approval page in the client.',
      expect.stringMatching(/^Intent int_\w+ is approved: you may call get_card_credentials/),
    ]);
    // Two rounds, one intent.
    expect(await intentsOnCard()).toBe(before + 1);
    await client.close();
    await handler.close();
  });

  it("on the wire: the page in inputRequests, no elicitationId; after the mock's approver decided, the retry answers it", async () => {
    const handler = handlerFor();
    const args = purchase();
    const first = await askForPage(handler, args);
    expect(first.resultType).toBe('input_required');
    const request = first.inputRequests.approval;
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'url', url: expect.stringMatching(/approvals\/int_/) },
    });
    expect(request?.params).not.toHaveProperty('elicitationId');
    expect(first.requestState).toMatch(/^v1\./);
    const intentId = intentOfPage(first);
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');

    const approver = world.running.mock.approver({ client: world.api, decide: 'approve' });
    try {
      const second = await retry(handler, {
        name: 'declare_intent',
        arguments: args,
        inputResponses: { approval: { action: 'accept' } },
        requestState: first.requestState,
      });
      expect(second.answer.result).toMatchObject({
        resultType: 'complete',
        structuredContent: { id: intentId, status: 'pending' },
      });
      expect(approver.decided).toContainEqual(expect.objectContaining({ intentId, decision: 'approve' }));
    } finally {
      approver.stop();
    }
    await handler.close();
  });

  it('a person who declines gets the intent as it is, with the link and the wait step', async () => {
    const handler = handlerFor();
    const args = purchase();
    const first = await askForPage(handler, args);
    for (const [responses, why] of [
      [{ approval: { action: 'decline' } }, '(decline)'],
      [{}, '(no answer)'],
    ] as const) {
      const { answer } = await retry(handler, {
        name: 'declare_intent',
        arguments: args,
        inputResponses: responses,
        requestState: first.requestState,
      });
      expect(answer.result.structuredContent).toMatchObject({ status: 'pending_approval' });
      const said = toolText(answer);
      expect(said[1]).toBe(`The person did not open the approval page in the client ${why}.`);
      expect(said[2]).toMatch(/Then call wait_for_approval with intentId int_\w+\./);
    }
    await handler.close();
  });

  it('a client that shows no URL (or only forms) is never asked, and no -32021 follows an intent it cannot approve', async () => {
    const handler = handlerFor();
    for (const capabilities of [{}, { elicitation: { form: {} } }]) {
      const before = await intentsOnCard();
      const { status, answer } = await modernRpc(
        URL_,
        'tools/call',
        { name: 'declare_intent', arguments: purchase() },
        {
          capabilities,
          fetch: handler,
        },
      );
      expect(status).toBe(200);
      expect(answer.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'pending_approval' } });
      expect(toolText(answer)[1]).toMatch(/^A person must approve intent/);
      expect(await intentsOnCard()).toBe(before + 1);
    }
    await handler.close();
  });
});

describe('a requestState a client changed or moved', () => {
  it('is refused with -32602, never a 500, and nothing is declared or decided', async () => {
    const handler = handlerFor();
    const args = purchase();
    const first = await askForPage(handler, args);
    const intentId = intentOfPage(first);
    const other = await askForPage(handlerFor({ stateSecret: 'another-state-secret-of-32-bytes-or-more' }), args);
    const theirCard = (
      await world.api.cards.create({
        customerId: world.customerId,
        agentId: world.otherAgentId,
        type: 'virtual',
        usage: 'multi',
        policy: { requireApproval: true },
      })
    ).id;
    const otherAgent = await askForPage(handlerFor({}, world.otherAgentId), { ...args, cardId: theirCard });
    expect(otherAgent.requestState).toMatch(/^v1\./);
    const accept = { approval: { action: 'accept' } };
    const [head, body, mac] = first.requestState.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    forged.p.intentId = 'int_someoneelses';
    const cases: [string, Record<string, unknown>][] = [
      ['tampered', { name: 'declare_intent', arguments: args, requestState: `${first.requestState}-TAMPERED` }],
      [
        'a payload rewritten',
        {
          name: 'declare_intent',
          arguments: args,
          requestState: `${head}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`,
        },
      ],
      ['for another tool', { name: 'get_intent', arguments: { intentId }, requestState: first.requestState }],
      [
        'for other arguments',
        { name: 'declare_intent', arguments: { ...args, expectedAmount: 1 }, requestState: first.requestState },
      ],
      ['signed by another server', { name: 'declare_intent', arguments: args, requestState: other.requestState }],
      [
        'of another agent',
        { name: 'declare_intent', arguments: { ...args, cardId: theirCard }, requestState: otherAgent.requestState },
      ],
    ];
    const before = await intentsOnCard();
    for (const [label, params] of cases) {
      const { status, answer } = await retry(handler, { ...params, inputResponses: accept });
      expect(status, label).toBe(200);
      expect(answer.error, label).toEqual({
        code: -32602,
        message: 'Invalid or expired requestState',
        data: { reason: 'invalid_request_state' },
      });
    }
    expect(await intentsOnCard()).toBe(before);
    expect((await world.api.intents.retrieve(intentId)).status).toBe('pending_approval');
    await handler.close();
  });
});

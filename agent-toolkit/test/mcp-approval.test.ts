// A person's approval over MCP 2025-11-25 (a connection: the server sends elicitation/create), client by client: one that shows the approval page (URL elicitation) and whose person
// opens it, one that declines, one without the capability, one that never answers; the decision arriving or not in
// time; wait_for_approval's progress and cancellation. Every answer's structuredContent is checked against the
// tool's outputSchema (mcpCaller).
import { Client, type ClientCapabilities, type ElicitResult, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit } from '../src/index.js';
import { type CardrailMcpServerOptions, createCardrailMcpServer } from '../src/mcp/index.js';
import { recordingFetch } from './support/recording-fetch.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

interface Connected {
  client: Client;
  /** The elicitation requests the client received. */
  asked: { mode: string; url?: string; message: string; elicitationId?: string }[];
  /** The elicitations the server said were complete. */
  completed: string[];
  /** The requests the toolkit sent to the API. */
  sent: ReturnType<typeof recordingFetch>;
}

/**
 * An MCP client over the in-memory transport with the given capabilities, answering elicitations with `answer` (which
 * sees the request, so a test can play the person who opens the page and decides).
 */
async function connect(
  capabilities: ClientCapabilities,
  answer: (request: { url?: string; message: string }) => Promise<ElicitResult> = async () => ({ action: 'decline' }),
  options: CardrailMcpServerOptions = {},
): Promise<Connected> {
  const sent = recordingFetch();
  const toolkit = createCardrailToolkit({
    apiKey: world.apiKey,
    baseUrl: world.baseUrl,
    agentId: world.agentId,
    clientOptions: { fetch: sent.fetch, maxRetries: 0 },
  });
  const server = createCardrailMcpServer(toolkit, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'approval-test', version: '0.0.0' }, { capabilities });
  const asked: Connected['asked'] = [];
  const completed: string[] = [];
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Connected['asked'][number]);
      return answer(request.params as { url?: string; message: string });
    });
  }
  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    completed.push(notification.params.elicitationId);
  });
  await client.connect(clientSide);
  return { client, asked, completed, sent };
}

const purchase = () => ({
  cardId: world.approvalCard,
  summary: `GPU credits ${Math.random().toString(36).slice(2, 7)}`,
  expectedAmount: 2_500,
  expectedMerchant: 'OpenAI',
});

/** The id of the intent the approval page of a URL is for. */
const intentOfUrl = (url: string | undefined) => url?.match(/approvals\/(int_\w+)/)?.[1];

describe('declare_intent on a card that needs a person', () => {
  it('a client that shows URLs gets the approval page; once the person opened it and approved, the decided intent', async () => {
    const { client, asked, completed } = await connect({ elicitation: { url: {} } }, async (request) => {
      // The person opens the page and approves there, after the client answered.
      const intentId = intentOfUrl(request.url);
      setTimeout(() => void world.api.intents.approve(intentId as string), 200);
      return { action: 'accept' };
    });
    const declared = await mcpCaller(client)('declare_intent', purchase());
    expect(declared.isError).toBe(false);
    expect(declared.payload).toMatchObject({ status: 'pending', approvedBy: 'api' });
    expect(asked).toEqual([
      expect.objectContaining({
        mode: 'url',
        url: declared.payload.approvalUrl,
        elicitationId: expect.any(String),
        message: `Agent ${world.agentId} wants to pay 25.00 USD at OpenAI for "${declared.payload.summary}" (intent ${declared.payload.id}). Its card needs a person's approval: open the page to approve or reject it.`,
      }),
    ]);
    expect(declared.said).toEqual([
      'The person was shown the approval page in the client.',
      expect.stringMatching(/^Intent int_\w+ is approved: you may call get_card_credentials/),
    ]);
    await expect.poll(() => completed).toEqual([asked[0]?.elicitationId]);
    await client.close();
  });

  it('a rejection on the page is the answer, with its reason', async () => {
    const { client } = await connect({ elicitation: { url: {} } }, async (request) => {
      setTimeout(() => void world.api.intents.reject(intentOfUrl(request.url) as string, { reason: 'Too much' }), 100);
      return { action: 'accept' };
    });
    const declared = await mcpCaller(client)('declare_intent', purchase());
    expect(declared.payload).toMatchObject({ status: 'rejected', rejectionReason: 'Too much' });
    expect(declared.said.at(-1)).toMatch(/rejected .*: Too much\. Do not pay/);
    await client.close();
  });

  it('when the person opened the page but decides later than decisionWaitSeconds, the intent as it is and the wait step', async () => {
    const { client, completed } = await connect({ elicitation: { url: {} } }, async () => ({ action: 'accept' }), {
      approval: { decisionWaitSeconds: 1 },
    });
    const declared = await mcpCaller(client)('declare_intent', purchase());
    expect(declared.payload.status).toBe('pending_approval');
    expect(declared.said.at(-1)).toMatch(/call wait_for_approval with intentId int_\w+ again/);
    expect(completed).toEqual([]);
    await client.close();
  });

  it.each([
    [
      'declines',
      { elicitation: { url: {} } },
      async () => ({ action: 'decline' }) as const,
      /did not open the approval page in the client \(decline\)/,
    ],
    ['cancels', { elicitation: { url: {} } }, async () => ({ action: 'cancel' }) as const, /\(cancel\)/],
    [
      'fails',
      { elicitation: { url: {} } },
      async (): Promise<ElicitResult> => Promise.reject(new Error('no browser')),
      /could not show the approval page/,
    ],
  ] as const)(
    'a client that %s gets the link and completes the loop with wait_for_approval',
    async (_label, capabilities, answer, note) => {
      const { client, asked } = await connect(capabilities, answer);
      const call = mcpCaller(client);
      const declared = await call('declare_intent', purchase());
      expect(asked).toHaveLength(1);
      expect(declared.payload).toMatchObject({
        status: 'pending_approval',
        approvalUrl: expect.stringContaining(declared.payload.id),
      });
      expect(declared.said[0]).toMatch(note);
      expect(declared.said[1]).toContain(`this link, where they approve or reject it: ${declared.payload.approvalUrl}`);
      expect(declared.said[1]).toMatch(/Then call wait_for_approval with intentId int_\w+\./);

      // The person decides through the link the model handed on; the model's wait answers the decision.
      const waiting = call('wait_for_approval', { intentId: declared.payload.id, timeoutSeconds: 60 });
      await world.api.intents.approve(declared.payload.id);
      const waited = await waiting;
      expect(waited.isError).toBe(false);
      expect(waited.payload).toMatchObject({ id: declared.payload.id, status: 'pending', approvedBy: 'api' });
      expect(waited.said.at(-1)).toMatch(/is approved: you may call get_card_credentials/);
      await client.close();
    },
  );

  it('a client without the capability (or form mode only) is not asked at all', async () => {
    for (const capabilities of [{}, { elicitation: { form: {} } }]) {
      const { client, asked } = await connect(capabilities);
      const declared = await mcpCaller(client)('declare_intent', purchase());
      expect(asked).toEqual([]);
      expect(declared.payload.status).toBe('pending_approval');
      expect(declared.said).toEqual([expect.stringMatching(/^A person must approve intent/)]);
      await client.close();
    }
  });

  it('a client that never answers costs elicitationTimeoutMs at most, then the link', async () => {
    const { client } = await connect({ elicitation: { url: {} } }, () => new Promise<never>(() => {}), {
      approval: { elicitationTimeoutMs: 300 },
    });
    const started = performance.now();
    const declared = await mcpCaller(client)('declare_intent', purchase());
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(declared.payload.status).toBe('pending_approval');
    expect(declared.said[0]).toMatch(/could not show the approval page \(.*[Tt]imed out/);
    await client.close();
  });

  it('with elicitation turned off, no client is asked', async () => {
    const { client, asked } = await connect({ elicitation: { url: {} } }, async () => ({ action: 'accept' }), {
      approval: { elicitation: false },
    });
    expect((await mcpCaller(client)('declare_intent', purchase())).payload.status).toBe('pending_approval');
    expect(asked).toEqual([]);
    await client.close();
  });

  it('refuses approval settings out of bounds when the server is created', () => {
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, agentId: world.agentId, baseUrl: world.baseUrl });
    expect(() => createCardrailMcpServer(toolkit, { approval: { decisionWaitSeconds: 301 } })).toThrow(/from 1 to 300/);
    expect(() => createCardrailMcpServer(toolkit, { approval: { elicitationTimeoutMs: 0 } })).toThrow(/positive whole number/);
  });
});

describe('wait_for_approval over MCP', () => {
  it('reports progress to a client that asked for it, and answers the decision', async () => {
    const { client } = await connect({});
    const declared = await mcpCaller(client)('declare_intent', purchase());
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const waiting = client.callTool(
      { name: 'wait_for_approval', arguments: { intentId: declared.payload.id, timeoutSeconds: 60 } },
      {
        onprogress: (update) => progress.push(update),
        resetTimeoutOnProgress: true,
      },
    );
    await expect.poll(() => progress.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await world.api.intents.approve(declared.payload.id);
    const answered = await waiting;
    expect(answered.structuredContent).toMatchObject({ id: declared.payload.id, status: 'pending' });
    expect(progress[0]).toMatchObject({ total: 60_000, message: expect.stringContaining(declared.payload.id) });
    await client.close();
  });

  it('stops reading when the client cancels the call', async () => {
    const { client, sent } = await connect({});
    const declared = await mcpCaller(client)('declare_intent', purchase());
    const controller = new AbortController();
    const waiting = client.callTool(
      { name: 'wait_for_approval', arguments: { intentId: declared.payload.id } },
      { signal: controller.signal },
    );
    const reads = () => sent.paths().filter((path) => path === `GET /intents/${declared.payload.id}`).length;
    await expect.poll(reads, { timeout: 20_000 }).toBeGreaterThan(0);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    const after = reads();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(reads()).toBeLessThanOrEqual(after + 1);
    await client.close();
  });

  it("refuses a wait past its maximum, naming it, and another agent's intent", async () => {
    const { client } = await connect({});
    const call = mcpCaller(client);
    expect(await call('wait_for_approval', { intentId: 'int_x', timeoutSeconds: 600 })).toMatchObject({
      isError: true,
      payload: {
        error: { code: 'invalid_input', details: { field: 'timeoutSeconds', reason: 'must be at most 300 (got 600)' } },
      },
    });
    const theirs = await world.api.intents.create({ cardId: world.otherAgentCard, summary: 'Theirs', expectedAmount: 900 });
    expect(await call('wait_for_approval', { intentId: theirs.id })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope' } },
    });
    await client.close();
  });
});

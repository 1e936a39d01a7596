import { Client, InMemoryTransport, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit, TOOL_NAMES } from '../src/index.js';
import { createCardrailMcpServer } from '../src/mcp/index.js';
import { refusalPaths, scriptedAgentRun } from './support/scenarios.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';
import { compileToolSchema } from './support/schema-validator.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

async function connect(options: { cardId?: string } = {}): Promise<Client> {
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId, ...options });
  const server = createCardrailMcpServer(toolkit);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('MCP server over the in-memory transport', () => {
  it('introduces itself with the agent it acts for and lists the eight tools, each with a title and valid JSON Schema input and output', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'cardrail' });
    expect(client.getInstructions()).toContain(world.agentId);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(() => compileToolSchema(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(() => compileToolSchema(tool.outputSchema ?? {}), tool.name).not.toThrow();
      expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
      expect(tool.description?.length, tool.name).toBeGreaterThan(80);
    }
    expect(tools.find((tool) => tool.name === 'wait_for_approval')).toMatchObject({
      title: 'Wait for approval',
      annotations: { readOnlyHint: true },
      inputSchema: { required: ['intentId'], properties: { timeoutSeconds: { default: 45, maximum: 300 } } },
    });
    // Every hint as the catalog states it, and whether a person may be asked; nothing decided by a tool's name.
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    for (const tool of toolkit.tools) {
      const listed = tools.find((candidate) => candidate.name === tool.name);
      expect(listed?.annotations, tool.name).toEqual({
        title: tool.title,
        readOnlyHint: tool.readOnly,
        destructiveHint: tool.destructive,
        idempotentHint: tool.idempotent,
        openWorldHint: tool.openWorld,
      });
      expect(listed?._meta?.['dev.cardrail/mayNeedPerson'], tool.name).toBe(tool.mayNeedPerson ? true : undefined);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.check_spending_power?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.freeze_card?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(byName.get_card_credentials?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.filter((tool) => tool._meta?.['dev.cardrail/mayNeedPerson']).map((tool) => tool.name)).toEqual([
      'declare_intent',
    ]);
    await client.close();
  });

  it('runs the scripted agent purchase end to end', async () => {
    const client = await connect();
    await scriptedAgentRun(world, mcpCaller(client));
    await client.close();
  });

  it("refuses another agent's card, credentials without an intent and a frozen card, as tool errors", async () => {
    const client = await connect();
    await refusalPaths(world, mcpCaller(client));
    await client.close();
  });

  it('answers bad input with a tool error and an unknown tool with a protocol error, and keeps serving', async () => {
    const client = await connect();
    const call = mcpCaller(client);
    expect(await call('evaluate_spend', { cardId: world.approvalCard, amount: 100, agentId: world.otherAgentId })).toMatchObject({
      isError: true,
      payload: { error: { code: 'invalid_input', details: { fields: ['agentId'] } } },
    });
    expect(await call('check_spending_power', {})).toMatchObject({
      isError: true,
      payload: { error: { code: 'invalid_input', details: { fields: ['cardId'] } } },
    });
    const before = (await world.api.intents.list({ cardId: world.approvalCard })).data.length;
    const badAmount = await call('declare_intent', { cardId: world.approvalCard, summary: 'x', expectedAmount: '25 dollars' });
    expect(badAmount).toMatchObject({
      isError: true,
      payload: {
        error: {
          code: 'invalid_input',
          details: { field: 'expectedAmount', reason: 'must be an integer (got the string "25 dollars")' },
        },
      },
    });
    expect(badAmount.payload.error.message).toBe(
      'declare_intent: expectedAmount must be an integer (got the string "25 dollars"). Nothing was sent.',
    );
    expect((await world.api.intents.list({ cardId: world.approvalCard })).data).toHaveLength(before);
    expect(await call('get_intent', { intentId: 'int_doesnotexist' })).toMatchObject({
      isError: true,
      payload: { error: { code: 'not_found', status: 404 } },
    });

    const unknown = client.callTool({ name: 'unfreeze_card', arguments: { cardId: world.plainCard } });
    await expect(unknown).rejects.toBeInstanceOf(ProtocolError);
    await expect(unknown).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool unfreeze_card; the tools are check_spending_power, '),
    });

    expect((await call('check_spending_power', { cardId: world.approvalCard })).isError).toBe(false);
    await client.close();
  });

  it('bound to one card: cardId is optional, defaults to that card, and any other card is refused', async () => {
    const client = await connect({ cardId: world.intentCard });
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema.required ?? [], tool.name).not.toContain('cardId');
    const call = mcpCaller(client);
    expect(await call('check_spending_power')).toMatchObject({
      isError: false,
      payload: { cardId: world.intentCard, policy: { requireIntent: true } },
    });
    expect(await call('check_spending_power', { cardId: world.plainCard })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope', details: { cardId: world.plainCard } } },
    });
    await client.close();
  });
});

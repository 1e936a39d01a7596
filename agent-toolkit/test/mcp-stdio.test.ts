import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../src/index.js';
import { assertBuilt, BIN } from './support/bin.js';
import { runBin } from './support/child.js';
import { refusalPaths, scriptedAgentRun } from './support/scenarios.js';
import { compileToolSchema } from './support/schema-validator.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

let world: World;
let client: Client;
let stderr = '';

beforeAll(async () => {
  assertBuilt();
  world = await startWorld();
  // What the README's `npx cardrail-mcp --api-key sk_test_... --agent agt_... --base-url ...` runs.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--api-key', world.apiKey, '--agent', world.agentId, '--base-url', world.baseUrl],
    stderr: 'pipe',
  });
  (transport.stderr as Readable).on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  client = new Client({ name: 'stdio-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await world?.close();
});

describe('cardrail-mcp over stdio (the built bin)', () => {
  it('answers tools/list with the eight tools, each with a valid JSON Schema input and output', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(() => compileToolSchema(tool.inputSchema), tool.name).not.toThrow();
    }
    expect(stderr).toContain(`tools for agent ${world.agentId} on stdio`);
  });

  it('runs the scripted agent purchase end to end', async () => {
    await scriptedAgentRun(world, mcpCaller(client));
  });

  it("refuses another agent's card, credentials without an intent and a frozen card, and keeps serving", async () => {
    await refusalPaths(world, mcpCaller(client));
    expect((await mcpCaller(client)('check_spending_power', { cardId: world.approvalCard })).isError).toBe(false);
  });

  it('answers params that are missing or not an object with -32602 and a one-line message', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: 'check_spending_power' },
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: [1] },
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
    ];
    const run = await runBin(['--api-key', world.apiKey, '--agent', world.agentId, '--base-url', world.baseUrl], {
      input: lines.map((message) => `${JSON.stringify(message)}\n`).join(''),
    });
    expect(run.status).toBe(0);
    const answers = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; error?: { code: number; message: string }; result?: unknown })
      .sort((a, b) => a.id - b.id);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4, 5]);
    for (const answer of answers.slice(1, 4)) {
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
      expect(answer.error?.message.length).toBeLessThan(160);
    }
    expect(answers[1]?.error?.message).toContain('tools/call needs params');
    expect(answers[2]?.error?.message).toContain('tools/call takes params as an object');
    expect(answers[4]?.result).toMatchObject({ tools: expect.any(Array) });
  });

  it('answers every request sent before the client closes stdin, then exits', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'check_spending_power', arguments: { cardId: world.approvalCard } },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'freeze_card', arguments: { cardId: world.otherAgentCard } },
      },
    ];
    const run = await runBin(['--api-key', world.apiKey, '--agent', world.agentId, '--base-url', world.baseUrl], {
      input: messages.map((message) => `${JSON.stringify(message)}\n`).join(''),
    });
    expect(run.status).toBe(0);
    // Calls run concurrently, so answers come in any order.
    const answers = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: { isError?: boolean; content: { text: string }[] } })
      .sort((a, b) => a.id - b.id);
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3]);
    expect(JSON.parse(answers[1]!.result.content[0]!.text)).toMatchObject({ cardId: world.approvalCard });
    expect(answers[2]!.result.isError).toBe(true);
  });
});

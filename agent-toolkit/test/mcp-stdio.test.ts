import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../src/index.js';
import { assertBuilt, BIN } from './support/bin.js';
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
  it('answers tools/list with the seven tools, each with a valid JSON Schema input', async () => {
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

  it('refuses another agent\'s card, credentials without an intent and a frozen card, and keeps serving', async () => {
    await refusalPaths(world, mcpCaller(client));
    expect((await mcpCaller(client)('check_spending_power', { cardId: world.approvalCard })).isError).toBe(false);
  });
});

// The MCP Inspector's CLI (@modelcontextprotocol/inspector-cli 1.0.3, built on the v1 SDK: an MCP 2025-11-25
// client, as most clients in use today) lists the tools of `cardrail-mcp` and calls one, over HTTP and over stdio.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITS } from '../../scripts/lib/test-waits.mjs';
import { createCardrailToolkit, TOOL_NAMES } from '../src/index.js';
import { type RunningMcpHttpServer, serveHttp } from '../src/mcp/node.js';
import { assertBuilt, BIN } from '../test/support/bin.js';
import { finished } from '../test/support/child.js';
import { startWorld, type World } from '../test/support/world.js';

const require = createRequire(import.meta.url);
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build', 'cli.js');

let world: World;
let server: RunningMcpHttpServer;

beforeAll(async () => {
  assertBuilt();
  world = await startWorld();
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
  server = await serveHttp(toolkit, { port: 0 });
}, WAITS.start);

afterAll(async () => {
  await server?.close();
  await world?.close();
});

/** The inspector's CLI mode: its JSON answer on stdout (its deprecation banner goes to stderr). */
async function inspect(args: string[]): Promise<any> {
  const child = spawn(process.execPath, [INSPECTOR, '--cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run = await finished(child);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('the MCP Inspector CLI', () => {
  it(
    'lists the eight tools over HTTP, and calls one',
    async () => {
      const listed = await inspect([server.url, '--transport', 'http', '--method', 'tools/list']);
      expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual([...TOOL_NAMES]);
      const called = await inspect([
        server.url,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'check_spending_power',
        '--tool-arg',
        `cardId=${world.approvalCard}`,
      ]);
      expect(called.structuredContent).toMatchObject({ cardId: world.approvalCard, policy: { requireApproval: true } });
    },
    WAITS.test,
  );

  it(
    'lists the eight tools of the bin over stdio',
    async () => {
      const env = [
        `CARDRAIL_API_KEY=${world.apiKey}`,
        `CARDRAIL_AGENT_ID=${world.agentId}`,
        `CARDRAIL_BASE_URL=${world.baseUrl}`,
      ];
      const listed = await inspect([...env.flatMap((pair) => ['-e', pair]), process.execPath, BIN, '--method', 'tools/list']);
      expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual([...TOOL_NAMES]);
    },
    WAITS.test,
  );
});

// A user's MCP clients against the installed cardrail-mcp over stdio: one of MCP 2025-11-25 (the v1 SDK, which most
// clients in use embed) and one of 2026-07-28 (the v2 client, negotiating with server/discover). The server runs on
// the Node given as the first argument. Prints what each client saw, as JSON.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';

const require = createRequire(import.meta.url);
const toolkit = dirname(require.resolve('@cardrail/agent-toolkit/package.json'));
const bin = join(toolkit, require(join(toolkit, 'package.json')).bin['cardrail-mcp']);
const server = {
  command: process.argv[2] ?? process.execPath,
  args: [bin],
  env: {
    CARDRAIL_API_KEY: 'sk_test_packagetests1',
    CARDRAIL_AGENT_ID: 'agt_packagetests',
    CARDRAIL_BASE_URL: 'http://127.0.0.1:9/v1',
  },
  stderr: 'ignore',
};

const v1 = new ClientV1({ name: 'v1-client', version: '0.0.0' });
await v1.connect(new StdioClientTransportV1(server));
const legacy = { server: v1.getServerVersion()?.name, tools: (await v1.listTools()).tools.map((tool) => tool.name) };
await v1.close();

const v2 = new Client({ name: 'v2-client', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
await v2.connect(new StdioClientTransport(server));
const modern = { era: v2.getProtocolEra(), tools: (await v2.listTools()).tools.map((tool) => tool.name) };
await v2.close();

console.log(JSON.stringify({ legacy, modern }));

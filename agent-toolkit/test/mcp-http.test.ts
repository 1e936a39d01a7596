import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardrailToolkit, TOOL_NAMES } from '../src/index.js';
import { serveHttp, type RunningMcpHttpServer } from '../src/mcp/node.js';
import { assertBuilt, BIN } from './support/bin.js';
import { finished, stderrLine } from './support/child.js';
import { rpcAnswer } from './support/rpc.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

let world: World;
let server: RunningMcpHttpServer;

beforeAll(async () => {
  world = await startWorld();
  const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
  server = await serveHttp(toolkit, { port: 0 });
});
afterAll(async () => {
  await server?.close();
  await world?.close();
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A raw request with any Host header (fetch does not let a caller set Host). */
function raw(options: {
  method: string;
  path?: string;
  host?: string;
  origin?: string;
  body?: string;
  chunked?: boolean;
}): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: options.path ?? url.pathname,
        method: options.method,
        headers: {
          host: options.host ?? url.host,
          ...(options.origin === undefined ? {} : { origin: options.origin }),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(options.chunked ? { 'transfer-encoding': 'chunked' } : {}),
        },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    if (options.chunked && options.body !== undefined) {
      // No Content-Length: the size is only known while reading.
      for (let at = 0; at < options.body.length; at += 64 * 1024) outgoing.write(options.body.slice(at, at + 64 * 1024));
      outgoing.end();
    } else outgoing.end(options.body);
  });
}

describe('MCP server over streamable HTTP', () => {
  it('lists the tools and runs calls, tool errors included, for any number of clients', async () => {
    const first = await connect(server.url);
    const second = await connect(server.url);
    expect((await first.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(await mcpCaller(second)('check_spending_power', { cardId: world.approvalCard })).toMatchObject({
      isError: false,
      payload: { cardId: world.approvalCard },
    });
    expect(await mcpCaller(first)('freeze_card', { cardId: world.otherAgentCard })).toMatchObject({
      isError: true,
      payload: { error: { code: 'out_of_scope' } },
    });
    await first.close();
    await second.close();
  });

  it('a 2025-11-25 client over HTTP (no session, so no request to it) gets the link and the wait step, even with URL elicitation', async () => {
    const client = new Client({ name: 'http-2025', version: '0.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return { action: 'accept' };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(client.getProtocolEra()).toBe('legacy');
    const declared = await mcpCaller(client)('declare_intent', {
      cardId: world.approvalCard,
      summary: 'Over HTTP, 2025-11-25',
      expectedAmount: 700,
    });
    expect(declared.payload.status).toBe('pending_approval');
    expect(declared.said).toEqual([expect.stringMatching(/^A person must approve intent .* Then call wait_for_approval/)]);
    expect(asked).toEqual([]);
    await client.close();
  });

  it('refuses a foreign Host, other methods and paths, unreadable and oversized bodies, and keeps serving', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(await raw({ method: 'POST', host: 'evil.example:80', body: initialize })).toMatchObject({ status: 403 });
    expect(await raw({ method: 'GET' })).toMatchObject({ status: 405 });
    expect(await raw({ method: 'POST', path: '/other', body: initialize })).toMatchObject({ status: 404 });
    const garbled = await raw({ method: 'POST', body: '{"jsonrpc":' });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ error: { code: -32700 } });
    expect(await raw({ method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) })).toMatchObject({ status: 413 });
    expect(await raw({ method: 'POST', body: 'x'.repeat(2 * 1024 * 1024), chunked: true })).toMatchObject({ status: 413 });
    const localhost = await raw({ method: 'POST', host: `localhost:${server.port}`, body: initialize });
    expect(localhost.status).toBe(200);
    expect(rpcAnswer(localhost.body)).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it("refuses a web page of another origin (403), with a loopback Host, and serves local pages and the server's own", async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const origin of ['http://evil.example', 'https://127.0.0.1.evil.example', 'null', 'not a url']) {
      const refused = await raw({ method: 'POST', origin, body: list });
      expect(refused.status, origin).toBe(403);
      expect(JSON.parse(refused.body), origin).toMatchObject({
        error: { code: -32000, message: expect.stringContaining('Origin') },
      });
    }
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:3000', new URL(server.url).origin]) {
      const served = await raw({ method: 'POST', origin, body: list });
      expect(served.status, origin).toBe(200);
      expect(rpcAnswer(served.body), origin).toMatchObject({ result: { tools: expect.any(Array) } });
    }
  });

  it('allows the origins it is given, and no others', async () => {
    const toolkit = createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
    const guarded = await serveHttp(toolkit, { port: 0, allowedOrigins: ['https://app.example'] });
    try {
      const post = (origin: string) =>
        fetch(guarded.url, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      expect((await post('https://app.example')).status).toBe(200);
      expect((await post('https://app.example:8443')).status).toBe(403);
      expect((await post('http://localhost:6274')).status).toBe(403);
    } finally {
      await guarded.close();
    }
  });

  it('answers missing or malformed params with -32602 and a one-line message, and keeps serving', async () => {
    const rpc = async (id: number, method: string, params?: unknown) => {
      const body = JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      const answer = await raw({ method: 'POST', body });
      return rpcAnswer(answer.body) as { id: number; error?: { code: number; message: string }; result?: unknown };
    };
    const cases: [string, unknown, RegExp][] = [
      ['tools/call', undefined, /tools\/call needs params: an object with the tool's name and its arguments/],
      ['tools/call', 'check_spending_power', /tools\/call takes params as an object/],
      ['tools/call', [1, 2], /tools\/call takes params as an object/],
      ['tools/call', {}, /tools\/call: params\.name: expected string/],
      ['tools/call', { name: 'check_spending_power', arguments: 5 }, /params\.arguments: expected record/],
      ['tools/list', 5, /tools\/list takes params as an object/],
      ['initialize', undefined, /initialize needs params/],
    ];
    for (const [index, [method, params, message]] of cases.entries()) {
      const answer = await rpc(index + 1, method, params);
      expect(answer.id).toBe(index + 1);
      expect(answer.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
      expect(answer.error?.message).toMatch(message);
      // One line, not a dump of the schema.
      expect(answer.error?.message.length).toBeLessThan(160);
      expect(answer.error?.message).not.toContain('\n');
    }
    expect(await rpc(99, 'tools/list')).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it('is what `cardrail-mcp --transport http --port 0` serves, until SIGTERM', async () => {
    assertBuilt();
    const child = spawn(
      process.execPath,
      [
        BIN,
        '--transport',
        'http',
        '--port',
        '0',
        '--api-key',
        world.apiKey,
        '--agent',
        world.agentId,
        '--base-url',
        world.baseUrl,
      ],
      {
        env: {},
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const done = finished(child);
    const [, url] = await stderrLine(child, /at (http:\/\/127\.0\.0\.1:[0-9]+\/mcp) \(streamable HTTP\)/);
    const client = await connect(url!);
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    await client.close();
    child.kill('SIGTERM');
    expect(await done).toMatchObject({ status: 0, stdout: '' });
  });
});

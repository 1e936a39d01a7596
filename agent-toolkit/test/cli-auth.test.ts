import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli/args.js';
import { startAuthorizationServer, type TestAuthorizationServer } from './support/authorization-server.js';
import { bearerChallenge } from './support/bearer-challenge.js';
import { assertBuilt, BIN } from './support/bin.js';
import { finished, runBin, stderrLine } from './support/child.js';
import { freePort } from './support/free-port.js';
import { mcpCaller } from './support/tool-caller.js';
import { startWorld, type World } from './support/world.js';

const KEY = ['--api-key', 'sk_test_cli000001'];
const HTTP = ['--transport', 'http'];
const AUTH = ['--auth-issuer', 'https://auth.example.com/', '--auth-audience', 'https://mcp.example.com/mcp'];

beforeAll(assertBuilt);

describe('cardrail-mcp --auth-issuer', () => {
  it('reads the OAuth flags into the server settings, without --agent', () => {
    const command = parseCli(
      [
        ...KEY,
        ...HTTP,
        ...AUTH,
        '--auth-jwks-url',
        'https://keys.example.com/jwks.json',
        '--auth-algorithms',
        'ES256, RS256',
        '--auth-spend-scope',
        'cardrail.pay',
        '--auth-agent-claim',
        'https://cardrail.example/agent',
      ],
      {},
    );
    expect(command).toMatchObject({
      kind: 'serve',
      config: {
        agentId: undefined,
        transport: 'http',
        auth: {
          issuer: 'https://auth.example.com/',
          audience: 'https://mcp.example.com/mcp',
          jwksUrl: 'https://keys.example.com/jwks.json',
          algorithms: ['ES256', 'RS256'],
          scopes: { spend: 'cardrail.pay' },
          claims: { agentId: 'https://cardrail.example/agent' },
        },
      },
    });
    expect(parseCli([...KEY, '--agent', 'agt_1'], {})).toMatchObject({ config: { auth: undefined } });
  });

  it('refuses OAuth flags that do not fit, with status 2 and the flag to fix', async () => {
    const cases: [string[], RegExp][] = [
      [[...KEY, ...AUTH], /--auth-issuer applies to --transport http only/],
      [[...KEY, ...HTTP, '--auth-issuer', 'https://auth.example.com/'], /--auth-issuer needs --auth-audience <url>/],
      [[...KEY, ...HTTP, '--auth-jwks-url', 'https://keys.example.com/'], /--auth-jwks-url needs --auth-issuer <url>/],
      [[...KEY, ...HTTP, ...AUTH, '--agent', 'agt_1'], /each access token names its agent and card: drop --agent/],
      [
        [...KEY, ...HTTP, '--auth-issuer', 'http://auth.example.com/', '--auth-audience', 'https://mcp.example.com/mcp'],
        /--auth-issuer must be an https URL/,
      ],
      [[...KEY, ...HTTP, ...AUTH, '--auth-algorithms', 'ES256,HS256'], /--auth-algorithms must not allow HS256/],
      [[...KEY, ...HTTP, ...AUTH, '--auth-read-scope', 'read all'], /--auth-read-scope must be a non-empty name without spaces/],
      [[...HTTP, ...AUTH], /--api-key <key> is required/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runBin(args)));
    for (const [i, [args, message]] of cases.entries()) {
      expect(runs[i]?.status, args.join(' ')).toBe(2);
      expect(runs[i]?.stderr, args.join(' ')).toMatch(message);
    }
    const env = await runBin([...KEY, ...HTTP, ...AUTH], { env: { CARDRAIL_AGENT_ID: 'agt_env' } });
    expect(env).toMatchObject({ status: 2, stderr: expect.stringMatching(/CARDRAIL_AGENT_ID/) });
    const help = await runBin(['--help']);
    for (const flag of [
      '--auth-issuer',
      '--auth-audience',
      '--auth-jwks-url',
      '--auth-algorithms',
      '--auth-read-scope',
      '--auth-card-claim',
    ])
      expect(help.stdout).toContain(flag);
  });
});

describe('cardrail-mcp --transport http --auth-issuer, end to end', () => {
  let world: World;
  let as: TestAuthorizationServer;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await as?.close();
    await world?.close();
  });

  it('asks for a token, then serves the agent and card of its claims, until SIGTERM', async () => {
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer(audience);
    const args = [
      ...HTTP,
      '--port',
      String(port),
      '--base-url',
      world.baseUrl,
      '--auth-issuer',
      as.issuer,
      '--auth-audience',
      audience,
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { CARDRAIL_API_KEY: world.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = finished(child);
    // One wait for both lines: they may arrive in one chunk.
    const [, url] = await stderrLine(
      child,
      /at (http:\/\/127\.0\.0\.1:[0-9]+\/mcp) \(streamable HTTP, OAuth\)[\s\S]*signing keys from http:\/\/127\.0\.0\.1:[0-9]+\/jwks\.json/,
    );
    expect(url).toBe(audience);

    const anonymous = await fetch(audience, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
    expect(bearerChallenge(anonymous.headers.get('www-authenticate'))).toEqual({
      resource_metadata: metadataUrl,
      scope: 'cardrail:read',
    });
    expect(await (await fetch(metadataUrl)).json()).toMatchObject({ resource: audience, authorization_servers: [as.issuer] });

    const token = await as.sign({
      claims: { cardrail_agent_id: world.agentId, cardrail_card_id: world.plainCard, scope: 'cardrail:read' },
    });
    const client = new Client({ name: 'cli-oauth-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(audience), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    expect(await mcpCaller(client)('check_spending_power', {})).toMatchObject({
      isError: false,
      payload: { cardId: world.plainCard },
    });
    await client.close();
    const refused = await fetch(audience, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'freeze_card', arguments: {} } }),
    });
    expect(refused.status).toBe(403);
    expect(bearerChallenge(refused.headers.get('www-authenticate'))).toMatchObject({ error: 'insufficient_scope' });
    expect((await world.api.cards.retrieve(world.plainCard)).status).toBe('active');

    child.kill('SIGTERM');
    expect(await done).toMatchObject({ status: 0, stdout: '' });
  });
});

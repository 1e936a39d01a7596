// CORS of the standalone mock, over real HTTP: any origin by default, preflights for every operation without a key
// and outside the rate limit, the headers the SDK reads exposed; `--cors` restricts, `--no-cors` turns it off. (A
// real browser calling it from another origin: runtime-tests/test/browser.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../src/adapters/node.js';
import { runCli, type CliIo } from '../src/cli/serve-command.js';
import { EXPOSED_HEADERS, parseCorsOrigins } from '../src/http/cors.js';
import { documents } from '@cardrail/spec/documents';
import { VARIANTS } from '../src/core/variant.js';
import { extractOperations } from '../src/spec/operations.js';
import { newKey } from './support/keys.js';

const PAGE = 'http://localhost:5173';
const running: RunningMockServer[] = [];

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<RunningMockServer> {
  const server = await startMockServer({ port: 0, ...options });
  running.push(server);
  return server;
}

afterAll(async () => {
  await Promise.all(running.map((server) => server.close()));
});

function preflight(url: string, method: string, origin = PAGE, headers = 'authorization, content-type, idempotency-key') {
  return fetch(url, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
  });
}

describe('CORS (default: any origin)', () => {
  it('answers the preflight of every operation of both variants, without a key', async () => {
    const server = await start();
    const origin = new URL(server.url).origin;
    let answered = 0;
    for (const variant of VARIANTS) {
      for (const operation of extractOperations(documents[variant], variant)) {
        const path = operation.path.replace(/\{[^}]+\}/g, 'x_1');
        const response = await preflight(`${origin}/v1${path}`, operation.method);
        expect(response.status, `${operation.method} ${path}`).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(response.headers.get('access-control-allow-methods')).toContain(operation.method);
        expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key');
        expect(response.headers.get('request-id')).toMatch(/^req_/);
        answered++;
      }
    }
    expect(answered).toBeGreaterThan(100);
  });

  it('exposes Request-Id, Idempotent-Replayed, Retry-After and RateLimit-* on answers, errors included', async () => {
    const server = await start({ rateLimit: 1 });
    const headers = { Origin: PAGE, Authorization: `Bearer ${newKey()}` };
    const ok = await fetch(`${server.url}/cards`, { headers });
    const limited = await fetch(`${server.url}/cards`, { headers });
    const unauthenticated = await fetch(`${server.url}/cards`, { headers: { Origin: PAGE } });
    expect([ok.status, limited.status, unauthenticated.status]).toEqual([200, 429, 401]);
    for (const response of [ok, limited, unauthenticated]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual([...EXPOSED_HEADERS]);
    }
  });

  it('never counts a preflight against the rate limit', async () => {
    const server = await start({ rateLimit: 2 });
    for (let i = 0; i < 5; i++) expect((await preflight(`${server.url}/cards`, 'GET')).status).toBe(204);
    const headers = { Origin: PAGE, Authorization: `Bearer ${newKey()}` };
    const first = await fetch(`${server.url}/cards`, { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('leaves OPTIONS without Access-Control-Request-Method to the API (405 with Allow)', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/cards`, { method: 'OPTIONS', headers: { Origin: PAGE } });
    expect(response.status).toBe(405);
  });
});

describe('CORS restricted to a list of origins', () => {
  it('echoes an allowed origin with Vary: Origin, and gives any other origin no CORS header', async () => {
    const server = await start({ cors: [PAGE, 'https://app.example.com'] });
    const allowed = await preflight(`${server.url}/cards`, 'POST');
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(allowed.headers.get('vary')).toContain('Origin');
    const refused = await preflight(`${server.url}/cards`, 'POST', 'https://evil.example');
    expect(refused.status).toBe(204);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-methods')).toBeNull();

    const key = newKey();
    const read = await fetch(`${server.url}/cards`, {
      headers: { Origin: 'https://app.example.com', Authorization: `Bearer ${key}` },
    });
    expect(read.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const other = await fetch(`${server.url}/cards`, {
      headers: { Origin: 'https://evil.example', Authorization: `Bearer ${key}` },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS off', () => {
  it('answers a preflight like any OPTIONS request (405), with no CORS header on any answer', async () => {
    const server = await start({ cors: false });
    const response = await preflight(`${server.url}/cards`, 'POST');
    expect(response.status).toBe(405);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${server.url}/cards`, { headers: { Origin: PAGE, Authorization: `Bearer ${newKey()}` } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('--cors and --no-cors', () => {
  const io: CliIo = { out: () => undefined, onSignal: () => undefined };

  it('parse `*`, and lists of origins, and refuse anything that is not an origin with an example', () => {
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins(' http://localhost:5173 , https://app.example.com')).toEqual([
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    expect(() => parseCorsOrigins('localhost:5173')).toThrow(/not an origin.*http:\/\/localhost:5173/);
    expect(() => parseCorsOrigins('https://app.example.com/path')).toThrow(/no path/);
    expect(() => parseCorsOrigins('*,https://app.example.com')).toThrow(/alone/);
  });

  it('reach the server from the command line, and exclude each other', async () => {
    const restricted = await runCli(['--port', '0', '--cors', PAGE], io);
    const off = await runCli(['--port', '0', '--no-cors'], io);
    if (!restricted || !off) throw new Error('the CLI did not start');
    running.push(restricted.running, off.running);
    expect((await preflight(`${restricted.running.url}/cards`, 'GET')).headers.get('access-control-allow-origin')).toBe(PAGE);
    expect((await preflight(`${off.running.url}/cards`, 'GET')).status).toBe(405);
    await expect(runCli(['--port', '0', '--cors', PAGE, '--no-cors'], io)).rejects.toThrow(/exclude each other/);
  });
});

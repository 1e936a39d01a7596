// What a database failure is answered with beyond its status: the 503 of a request carries the Request-Id the request
// log printed for it, and a control-API restore that meets the database away answers 503 `state_not_saved` (the
// database's failure), while a bad snapshot stays 400 (docs/standalone-server.md#when-the-database-goes-away).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMockServer, startMockServer } from '../../src/adapters/node.js';
import { newKey } from '../support/keys.js';
import { type Answer, api } from './support/api.js';
import { commitFaultFired, takeDatabaseAway, terminateNextCommit } from './support/database-faults.js';
import { freshDatabase } from './support/databases.js';

const TOKEN = 'control-token-database-failures-0123456789';

/** 503 `state_not_saved` in the spec's error form, naming the database. */
function expectStateNotSaved(answer: Answer, where: string): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('1');
  expect(answer.body).toEqual({
    error: { code: 'state_not_saved', message: expect.stringContaining(where), details: { reason: expect.any(String) } },
  });
}

describe('the answers of a database failure', () => {
  let url: string;
  let server: RunningMockServer;
  /** The request log's lines, as `--log` prints them. */
  const logged: string[] = [];
  /** `127.0.0.1:<port>/<database>`: how answers name the database. */
  let where: string;
  beforeAll(async () => {
    url = await freshDatabase('failure_answers');
    server = await startMockServer({
      port: 0,
      state: url,
      dashboard: false,
      control: { token: TOKEN },
      log: (line) => logged.push(line),
    });
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port}${parsed.pathname}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * The one request with this method and path sent since `from` log lines has its line, naming the answer's status and
   * the Request-Id the answer carries.
   */
  function expectLoggedAs(from: number, method: string, path: string, answer: Answer): void {
    const requestId = answer.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    const lines = logged.slice(from).filter((line) => line.startsWith(`${method} /v1${path} `));
    expect(lines, logged.slice(from).join('\n')).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${method} /v1${path} ${answer.status} [0-9.]+ms ${requestId}$`));
  }

  /** A control-API call, answered as the API's are. */
  async function control(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${server.control?.url ?? ''}${path}`, {
      method,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
  }

  it("gives the 503 of a commit that lost its connection the Request-Id of the request's log line", async () => {
    const call = api(server.url, newKey());
    expect((await call('POST', '/customers', { email: 'first@example.com' })).status).toBe(201);
    await terminateNextCommit(url);
    const from = logged.length;
    const answer = await call('POST', '/customers', { email: 'lost@example.com' });
    expect(await commitFaultFired(url)).toBe(true);
    expectStateNotSaved(answer, where);
    expectLoggedAs(from, 'POST', '/customers', answer);
  });

  it('gives the 503 of a request that found the database away the Request-Id of its log line', async () => {
    const call = api(server.url, newKey());
    const away = await takeDatabaseAway(url);
    let answer: Answer;
    const from = logged.length;
    try {
      answer = await call('GET', '/customers');
    } finally {
      await away.back();
    }
    expectStateNotSaved(answer, where);
    expectLoggedAs(from, 'GET', '/customers', answer);
  });

  it('answers a restore that finds the database away 503, and a bad snapshot 400', async () => {
    const key = newKey();
    const call = api(server.url, key);
    expect((await call('POST', '/customers', { email: 'kept@example.com' })).status).toBe(201);
    const saved = await control('GET', '/snapshot');
    expect(saved.status, saved.text).toBe(200);

    const away = await takeDatabaseAway(url);
    let restore: Answer;
    const others: [string, Answer][] = [];
    try {
      restore = await control('PUT', '/snapshot', saved.body);
      // The other calls that need the database: never 500.
      others.push(['GET /snapshot', await control('GET', '/snapshot')]);
      others.push(['POST /reset', await control('POST', '/reset')]);
      others.push(['POST /clock/advance', await control('POST', '/clock/advance', { seconds: 60 })]);
      others.push(['GET /events', await control('GET', '/events', undefined, { 'Cardrail-Api-Key': key })]);
    } finally {
      await away.back();
    }
    expectStateNotSaved(restore, where);
    expect(restore.headers.get('request-id')).toMatch(/^req_/);
    for (const [name, answer] of others) {
      expect(answer.status, name).toBe(503);
      expectStateNotSaved(answer, where);
    }

    // A snapshot of the right shape whose records cannot load is the caller's mistake: 400, and nothing changed.
    const bad = await control('PUT', '/snapshot', { ...saved.body, tenants: [{}] });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    // The same organization twice: keys the database holds once each.
    const twice = await control('PUT', '/snapshot', { ...saved.body, tenants: [...saved.body.tenants, ...saved.body.tenants] });
    expect(twice.status, twice.text).toBe(400);
    const listed = await call('GET', '/customers?limit=100');
    expect(listed.status, listed.text).toBe(200);
    expect(
      listed.body.data.map((customer: { email: string }) => customer.email),
      `after the refused restore (${twice.text}): ${listed.text}`,
    ).toEqual(['kept@example.com']);
  });

  it('answers a restore whose transaction loses its connection 503, and keeps the state as it was', async () => {
    const call = api(server.url, newKey());
    expect((await call('POST', '/customers', { email: 'before@example.com' })).status).toBe(201);
    const saved = await control('GET', '/snapshot');
    expect((await call('POST', '/customers', { email: 'after@example.com' })).status).toBe(201);

    // The restore writes each organization's row: the first such write ends its own session.
    await terminateNextCommit(url);
    const restore = await control('PUT', '/snapshot', saved.body);
    expect(await commitFaultFired(url)).toBe(true);
    expectStateNotSaved(restore, where);
    const listed = await call('GET', '/customers?limit=100');
    expect(listed.body.data.map((customer: { email: string }) => customer.email).sort()).toEqual([
      'after@example.com',
      'before@example.com',
    ]);
  });

  it('lists the 503 of a database failure in the control API document', async () => {
    const document = await control('GET', '/openapi.json');
    const restore = document.body.paths['/snapshot'].put.responses;
    expect(restore['400']).toBeDefined();
    expect(restore['503']).toBeDefined();
  });
});

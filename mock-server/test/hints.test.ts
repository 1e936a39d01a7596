import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { newKey } from './support/keys.js';

/** Hints name a likely cause and what to do, in the Cardrail-Hint header; the bodies stay the service's. */
describe.each(TRANSPORTS)('Cardrail-Hint through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport);
  });
  afterAll(() => h.close());

  const get = (path: string, headers: Record<string, string>) => fetch(`${h.baseUrl}${path}`, { headers });
  const refused = async (response: Response, status: number, body: unknown): Promise<string> => {
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
    const hint = response.headers.get('cardrail-hint');
    expect(hint).not.toBeNull();
    return hint as string;
  };
  const unauthorized = (response: Response) => refused(response, 401, { error: 'unauthorized' });
  const notFound = (response: Response) => refused(response, 404, { error: 'not_found' });

  it('explains a key of the wrong kind or format, without repeating the key', async () => {
    const publishable = 'pk_test_x';
    const pk = await unauthorized(await get('/customers', { Authorization: `Bearer ${publishable}` }));
    expect(pk).toMatch(/pk_ \(publishable\) key cannot call the API: use a secret key, sk_test_/);
    expect(pk).not.toContain(publishable);

    expect(await unauthorized(await get('/customers', { Authorization: 'Bearer sk_test_short' }))).toMatch(/too short/);
    expect(await unauthorized(await get('/customers', { Authorization: 'Bearer sk_test_has-dash!!' }))).toMatch(
      /character outside letters, digits and underscores/,
    );
    expect(await unauthorized(await get('/customers', { Authorization: `Bearer sk_test_${'a'.repeat(300)}` }))).toMatch(
      /longer than 256/,
    );
    expect(await unauthorized(await get('/customers', { Authorization: 'Bearer hello' }))).toMatch(/not a Cardrail API key/);
    expect(await unauthorized(await get('/users', { 'Api-Key': `Bearer ${newKey()}` }))).toMatch(/without "Bearer "/);
  });

  it('explains a wrong scheme, a missing key and two key headers', async () => {
    const key = newKey();
    const basic = await unauthorized(await get('/customers', { Authorization: `Basic ${key}` }));
    expect(basic).toMatch(/Authorization uses the Basic scheme; the API takes "Authorization: Bearer <key>"/);
    expect(basic).not.toContain(key);
    expect(await unauthorized(await get('/customers', { Authorization: key }))).toMatch(/needs the Bearer scheme/);
    expect(await unauthorized(await get('/customers', {}))).toMatch(/^No API key: send "Authorization: Bearer sk_test_/);
    expect(await unauthorized(await get('/customers', { Authorization: `Bearer ${key}`, 'Api-Key': key }))).toMatch(
      /one key header, not both/,
    );
  });

  it('explains a revoked key', async () => {
    const key = newKey();
    const created = await h.call('POST', '/api-keys', { key, body: { name: 'short-lived' } });
    await h.call('DELETE', `/api-keys/${created.body.id}`, { key });
    const revoked = await unauthorized(await get('/customers', { Authorization: `Bearer ${created.body.key}` }));
    expect(revoked).toMatch(/This key was revoked/);
  });

  it("names the other variant's key header for a path of one variant", async () => {
    const key = newKey();
    const apiKeyOnCustomers = await notFound(await get('/customers', { 'Api-Key': key }));
    expect(apiKeyOnCustomers).toBe(
      '/v1/customers belongs to the customer variant: send the key as "Authorization: Bearer <key>" instead of Api-Key (the user variant\'s paths are under /v1/users).',
    );
    const bearerOnUsers = await notFound(await get('/users', { Authorization: `Bearer ${key}` }));
    expect(bearerOnUsers).toMatch(/^\/v1\/users belongs to the user variant: send the key as "Api-Key: <key>"/);
  });

  it('points at /v1 for a path without it, and at the base URL for /v1 twice', async () => {
    const headers = { Authorization: `Bearer ${newKey()}` };
    // MSW's handlers answer only below /v1 (anything else is MSW's unhandled request), the server everything.
    if (transport === 'node') {
      const root = h.baseUrl.replace(/\/v1$/, '');
      expect(await notFound(await fetch(`${root}/customers`, { headers }))).toMatch(
        /^The API's paths start with \/v1: request \/v1\/customers /,
      );
      expect(await notFound(await fetch(`${root}/cards/card_123`, { headers }))).toMatch(/request \/v1\/cards\/card_123 /);
    }
    expect(await notFound(await fetch(`${h.baseUrl}/v1/agents`, { headers }))).toMatch(
      /^The path starts with \/v1\/v1: the base URL already ends in \/v1, so request \/v1\/agents/,
    );
    // A path that is nowhere gets the plain 404, with no guess.
    const nowhere = await fetch(`${h.baseUrl}/nothing-here`, { headers });
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get('cardrail-hint')).toBeNull();
  });

  it('names the route a near-miss path meant, keeping the body the service defines', async () => {
    const headers = { Authorization: `Bearer ${newKey()}`, 'Content-Type': 'application/json' };
    const body = JSON.stringify({ amount: 100 });
    const deposit = await fetch(`${h.baseUrl}/simulate/deposit`, { method: 'POST', headers, body });
    expect(await notFound(deposit)).toBe('No route POST /v1/simulate/deposit; did you mean POST /v1/simulate/deposits?');
    // A path parameter keeps the request's own value; a method the route lacks is named with the route's.
    const freeze = await fetch(`${h.baseUrl}/cards/card_123/freez`, { method: 'POST', headers });
    expect(await notFound(freeze)).toMatch(/did you mean POST \/v1\/cards\/card_123\/freeze\?$/);
    expect(await notFound(await get('/simulate/deposit', headers))).toMatch(/did you mean POST \/v1\/simulate\/deposits\?$/);
  });

  it('says when an id exists in the other mode of the organization', async () => {
    const test = newKey();
    const live = (await h.call('POST', '/api-keys', { key: test, body: { mode: 'live' } })).body.key as string;
    const customer = (await h.call('POST', '/customers', { key: test, body: { email: 'ada@example.com' } })).body;
    const hint = await notFound(await get(`/customers/${customer.id}`, { Authorization: `Bearer ${live}` }));
    expect(hint).toBe(
      `${customer.id} exists in test mode, and this is a live key: use an sk_test_ key of the same organization to reach it.`,
    );
    // Another organization's id is not revealed: a plain 404.
    const stranger = await get(`/customers/${customer.id}`, { Authorization: `Bearer ${newKey('live')}` });
    expect(stranger.status).toBe(404);
    expect(stranger.headers.get('cardrail-hint')).toBeNull();
    const unknown = await get('/customers/cus_doesnotexist', { Authorization: `Bearer ${live}` });
    expect(unknown.headers.get('cardrail-hint')).toBeNull();
  });

  it('sends no hint on a success', async () => {
    const answer = await get('/customers', { Authorization: `Bearer ${newKey()}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cardrail-hint')).toBeNull();
  });
});

describe('the hint in the log', () => {
  it("adds the hint to the request's log line", async () => {
    const lines: string[] = [];
    const mock = createMockServer({ log: (line) => lines.push(line) });
    await mock.handle(new Request('http://127.0.0.1/v1/users', { headers: { Authorization: `Bearer ${newKey()}` } }));
    await mock.handle(new Request('http://127.0.0.1/v1/users', { headers: { 'Api-Key': newKey() } }));
    expect(lines[0]).toMatch(/^GET \/v1\/users 404 [\d.]+ms req_\S+ hint: \/v1\/users belongs to the user variant: send/);
    expect(lines[1]).toMatch(/^GET \/v1\/users 200 [\d.]+ms req_\S+$/);
  });
});

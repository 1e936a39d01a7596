import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerOperations, userOperations } from '@cardrail/spec/operations';
import { documents } from '@cardrail/spec/documents';
import { extractOperations } from '../src/spec/operations.js';
import { deref, type OpenApiDocument } from '../src/spec/documents.js';
import { startHarness, TRANSPORTS, type Harness } from './support/harness.js';
import { newKey } from './support/keys.js';

/** The operation object at a path and method of a document. */
function operationObject(document: OpenApiDocument, path: string, method: string): { responses: Record<string, unknown> } {
  const item = deref<Record<string, unknown>>(document, document.paths[path] as Record<string, unknown>);
  return item[method.toLowerCase()] as { responses: Record<string, unknown> };
}

describe.each(TRANSPORTS)('HTTP rules through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport);
  });
  afterAll(() => h.close());

  const createCustomer = (key: string, variant: 'customer' | 'user' = 'customer') =>
    h.call('POST', variant === 'customer' ? '/customers' : '/users', { key, variant, body: { email: 'ada@example.com' } });

  describe('authentication, keys and modes', () => {
    it('refuses a request with neither header, with both, or with a malformed key (401, string form)', async () => {
      const key = newKey();
      const neither = await fetch(`${h.baseUrl}/customers`);
      expect(neither.status).toBe(401);
      expect(await neither.json()).toEqual({ error: 'unauthorized' });
      const both = await h.call('GET', '/customers', { key, headers: { 'Api-Key': key } });
      expect(both.status).toBe(401);
      for (const bad of ['sk_test_short', 'pk_test_12345678', 'sk_prod_12345678', 'sk_test_has-dash!!']) {
        const answer = await h.call('GET', '/customers', { key: bad });
        expect(answer.status, bad).toBe(401);
        expect(answer.body).toEqual({ error: 'unauthorized' });
      }
      const notBearer = await fetch(`${h.baseUrl}/customers`, { headers: { Authorization: `Basic ${key}` } });
      expect(notBearer.status).toBe(401);
    });

    it('refuses a key longer than 256 characters with 401, creating nothing, in either header', async () => {
      const organizations = () => h.mock.snapshot().tenants.length;
      const before = organizations();
      for (const length of [257, 15_000]) {
        const long = `sk_test_${'a'.repeat(length - 8)}`;
        expect((await h.call('GET', '/customers', { key: long })).status, String(length)).toBe(401);
        expect((await h.call('GET', '/users', { key: long, variant: 'user' })).status, String(length)).toBe(401);
      }
      expect(organizations()).toBe(before);
      // 256 is the longest accepted.
      expect((await h.call('GET', '/customers', { key: `sk_live_${'b'.repeat(248)}` })).status).toBe(200);
      expect(organizations()).toBe(before + 1);
    });

    it('reads the Bearer scheme in any case, after one space or more, with trailing whitespace', async () => {
      const key = newKey();
      for (const authorization of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`, `Bearer ${key} \t`]) {
        const answer = await fetch(`${h.baseUrl}/customers`, { headers: { Authorization: authorization } });
        expect(answer.status, authorization).toBe(200);
      }
      for (const authorization of ['Bearer', 'Bearer ', `Bearer\t${key}`, `Bearer ${key} extra`, `Bearer ${key}é`]) {
        const answer = await fetch(`${h.baseUrl}/customers`, { headers: { Authorization: authorization } });
        expect(answer.status, authorization).toBe(401);
      }
    });

    it('creates an organization on first use of a valid key, in either variant', async () => {
      const key = newKey();
      const empty = await h.call('GET', '/customers', { key });
      expect(empty).toMatchObject({ status: 200, body: { data: [], nextCursor: null, hasMore: false } });
      const users = await h.call('GET', '/users', { key, variant: 'user' });
      expect(users.status).toBe(200);
    });

    it('creates, lists and revokes API keys; a revoked key is 401 at once', async () => {
      const key = newKey();
      const created = await h.call('POST', '/api-keys', { key, body: { name: 'CI' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'CI', mode: 'test', status: 'active', revokedAt: null });
      expect(created.body.key).toMatch(/^sk_test_/);
      expect(created.body.redactedKey).toBe(`sk_test_...${created.body.key.slice(-4)}`);
      const second: string = created.body.key;

      // The new key sees the same organization.
      const customer = await createCustomer(key);
      expect((await h.call('GET', `/customers/${customer.body.id}`, { key: second })).status).toBe(200);

      const listed = await h.call('GET', '/api-keys', { key: second });
      expect(listed.body.data).toHaveLength(2);
      expect(listed.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);

      const revoked = await h.call('DELETE', `/api-keys/${created.body.id}`, { key });
      expect(revoked.body).toMatchObject({ id: created.body.id, status: 'revoked' });
      expect(revoked.body.revokedAt).not.toBeNull();
      const refused = await h.call('GET', '/customers', { key: second });
      expect(refused).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
      expect((await h.call('GET', '/customers', { key })).status).toBe(200);
      expect((await h.call('DELETE', '/api-keys/key_unknown', { key })).status).toBe(404);
    });

    it('isolates organizations and modes: another key gets 404, never 403', async () => {
      const owner = newKey();
      const customer = await createCustomer(owner);
      for (const other of [newKey('test'), newKey('live')]) {
        const answer = await h.call('GET', `/customers/${customer.body.id}`, { key: other });
        expect(answer).toMatchObject({ status: 404, body: { error: 'not_found' } });
        expect((await h.call('GET', '/customers', { key: other })).body.data).toEqual([]);
        expect((await h.call('PATCH', `/customers/${customer.body.id}`, { key: other, body: { phone: '1' } })).status).toBe(404);
      }
    });

    it('isolates the test and live modes of one organization (a live key made from a test key)', async () => {
      const test = newKey();
      const created = await h.call('POST', '/api-keys', { key: test, body: { name: 'production', mode: 'live' } });
      expect(created).toMatchObject({ status: 201, body: { name: 'production', mode: 'live', status: 'active' } });
      const live: string = created.body.key;
      expect(live).toMatch(/^sk_live_/);
      expect(created.body.redactedKey).toBe(`sk_live_...${live.slice(-4)}`);

      // Same organization: the catalog envelope of each mode's events names it.
      await createCustomer(test, 'user');
      await createCustomer(live, 'user');
      const organizationOf = async (key: string) =>
        (await h.call('GET', '/events?type=user.created', { key, variant: 'user' })).body.data.map(
          (e: { organizationId: string }) => e.organizationId,
        );
      const [testOrganization] = await organizationOf(test);
      expect(testOrganization).toMatch(/^org_/);
      expect(await organizationOf(live)).toEqual([testOrganization]);
      // ...and a key of the other mode made from the live key sees the test objects again.
      const backToTest = (await h.call('POST', '/api-keys', { key: live, body: { mode: 'test' } })).body.key as string;
      expect(backToTest).toMatch(/^sk_test_/);

      // None of the test mode's objects, lists or keys are the live mode's.
      const customer = await createCustomer(test);
      expect(await h.call('GET', `/customers/${customer.body.id}`, { key: live })).toMatchObject({
        status: 404,
        body: { error: 'not_found' },
      });
      expect((await h.call('PATCH', `/customers/${customer.body.id}`, { key: live, body: { phone: '1' } })).status).toBe(404);
      expect((await h.call('GET', `/customers/${customer.body.id}`, { key: backToTest })).status).toBe(200);
      const liveCustomers = (await h.call('GET', '/customers', { key: live })).body.data.map((c: { id: string }) => c.id);
      expect(liveCustomers).toHaveLength(1);
      expect(liveCustomers).not.toContain(customer.body.id);
      const testEvents = (await h.call('GET', '/events?limit=100', { key: test })).body.data.map((e: { id: string }) => e.id);
      const liveEvents = (await h.call('GET', '/events?limit=100', { key: live })).body.data.map((e: { id: string }) => e.id);
      expect(liveEvents.length).toBeGreaterThan(0);
      expect(liveEvents.filter((id: string) => testEvents.includes(id))).toEqual([]);
      expect((await h.call('GET', `/events/${testEvents[0]}`, { key: live })).status).toBe(404);

      // Test helpers refuse the live key of a test organization.
      for (const [method, path, body] of [
        ['GET', '/simulate/clock', undefined],
        ['POST', '/simulate/clock/advance', { seconds: 60 }],
        ['POST', '/simulate/deposits', { customerId: liveCustomers[0], amount: 1000 }],
      ] as const) {
        const refused = await h.call(method, path, { key: live, body });
        expect(refused.status, path).toBe(400);
        expect(refused.body.error.code, path).toBe('test_mode_only');
      }

      // Each mode lists and revokes its own keys only.
      const keyIds = async (key: string) =>
        (await h.call('GET', '/api-keys', { key })).body.data.map((k: { id: string; mode: string }) => [k.id, k.mode]);
      const testKeys = await keyIds(test);
      expect(testKeys).toHaveLength(2);
      expect(testKeys.every(([, mode]: [string, string]) => mode === 'test')).toBe(true);
      expect(await keyIds(live)).toEqual([[created.body.id, 'live']]);
      expect((await h.call('DELETE', `/api-keys/${created.body.id}`, { key: test })).status).toBe(404);
      expect((await h.call('GET', '/customers', { key: live })).status).toBe(200);
      const [otherModeKey] = testKeys[0];
      expect((await h.call('DELETE', `/api-keys/${otherModeKey}`, { key: live })).status).toBe(404);
      expect((await h.call('GET', '/customers', { key: test })).status).toBe(200);
      expect((await h.call('DELETE', `/api-keys/${created.body.id}`, { key: live })).body.status).toBe('revoked');
      expect((await h.call('GET', '/customers', { key: live })).status).toBe(401);
    });

    it('scopes idempotency keys per mode: the same key in the other mode is a new request', async () => {
      const test = newKey();
      const live = (await h.call('POST', '/api-keys', { key: test, body: { mode: 'live' } })).body.key as string;
      const headers = { 'Idempotency-Key': 'order-42' };
      const first = await h.call('POST', '/customers', { key: test, headers, body: { email: 'ada@example.com' } });
      const other = await h.call('POST', '/customers', { key: live, headers, body: { email: 'bob@example.com' } });
      expect(other.status).toBe(201);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(other.body.id).not.toBe(first.body.id);
      expect(other.body.email).toBe('bob@example.com');
      const replayed = await h.call('POST', '/customers', { key: live, headers, body: { email: 'bob@example.com' } });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.id).toBe(other.body.id);
      const reused = await h.call('POST', '/customers', { key: test, headers, body: { email: 'bob@example.com' } });
      expect(reused.body.error.code).toBe('idempotency_key_reused');
    });

    it('shows both variants of one organization the same objects (a customer is a user)', async () => {
      const key = newKey();
      const customer = await createCustomer(key);
      const user = await h.call('GET', `/users/${customer.body.id}`, { key, variant: 'user' });
      expect(user.status).toBe(200);
      expect(user.body).toEqual(customer.body);
    });

    it('answers test helpers only in test mode (400 test_mode_only for a live key)', async () => {
      const live = newKey('live');
      const answer = await h.call('POST', '/simulate/clock/advance', { key: live, body: { seconds: 60 } });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('test_mode_only');
      expect((await h.call('GET', '/simulate/clock', { key: live })).body.error.code).toBe('test_mode_only');
    });
  });

  describe('routing', () => {
    it('answers 404 not_found for an unknown path and a path of the other variant', async () => {
      const key = newKey();
      expect(await h.call('GET', '/nothing-here', { key })).toMatchObject({ status: 404, body: { error: 'not_found' } });
      expect((await h.call('GET', '/users', { key })).status).toBe(404);
      expect((await h.call('GET', '/customers', { key, variant: 'user' })).status).toBe(404);
      expect((await h.call('GET', '/customers/', { key })).status).toBe(404);
    });

    it('answers 405 with Allow for a known path with another method', async () => {
      const key = newKey();
      const answer = await h.call('PUT', '/cards/card_x', { key });
      expect(answer.status).toBe(405);
      const allowed = (value: string | null) => value?.split(', ').sort();
      expect(allowed(answer.headers.get('allow'))).toEqual(['GET', 'HEAD', 'PATCH']);
      expect(allowed((await h.call('DELETE', '/cards', { key })).headers.get('allow'))).toEqual(['GET', 'HEAD', 'POST']);
    });

    it('puts a Request-Id on every response', async () => {
      const key = newKey();
      const answers = [
        await h.call('GET', '/customers', { key }),
        await h.call('GET', '/customers', { key: 'nope' }),
        await h.call('GET', '/nope', { key }),
        await h.call('PUT', '/customers', { key }),
        await h.call('POST', '/customers', { key, body: {} }),
      ];
      const ids = answers.map((a) => a.headers.get('request-id'));
      for (const id of ids) expect(id).toMatch(/^req_/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('answers every operationId of both variants from its implementation, never 501 or unrouted', async () => {
      const key = newKey();
      let answered = 0;
      for (const variant of ['customer', 'user'] as const) {
        const document = documents[variant];
        for (const operation of extractOperations(document, variant)) {
          // Ids of objects that do not exist, and an empty body where there is one: each operation must answer
          // one of its own documented statuses (a 400 or 404 at worst), which an unrouted request or a missing
          // handler (501) never is.
          const path = operation.path.replace(/\{[^}]+\}/g, 'x_unknown');
          const body = operation.requestBody ? {} : undefined;
          const answer = await h.call(operation.method, path, { key, variant, body });
          const documented = Object.keys(operationObject(document, operation.path, operation.method).responses).map(Number);
          expect(answer.status, `${variant} ${operation.operationId}`).not.toBe(501);
          expect(documented, `${variant} ${operation.operationId} answered ${answer.status}`).toContain(answer.status);
          answered++;
        }
      }
      expect(answered).toBe(Object.keys(customerOperations).length + Object.keys(userOperations).length);
    });
  });

  describe('validation', () => {
    it('refuses malformed JSON and a wrong content type with 400 invalid_request', async () => {
      const key = newKey();
      const broken = await h.call('POST', '/customers', { key, rawBody: '{"email": ' });
      expect(broken.status).toBe(400);
      expect(broken.body.error).toMatchObject({ code: 'invalid_request', details: { field: '/body' } });
      const text = await h.call('POST', '/customers', {
        key,
        rawBody: 'email=ada@example.com',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(text.status).toBe(400);
      expect(text.body.error.details.field).toBe('/header/Content-Type');
      // Only application/json is documented; a +json media type with other semantics is refused too.
      const mergePatch = await h.call('POST', '/customers', {
        key,
        rawBody: JSON.stringify({ email: 'ada@example.com' }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(mergePatch.status).toBe(400);
      expect(mergePatch.body.error.details.field).toBe('/header/Content-Type');
      const withCharset = await h.call('POST', '/customers', {
        key,
        rawBody: JSON.stringify({ email: 'ada@example.com' }),
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
      expect(withCharset.status).toBe(201);
      expect((await h.call('GET', '/customers', { key })).body.data).toHaveLength(1);
    });

    it('names the field of a missing, mistyped, unknown or out-of-enum value', async () => {
      const key = newKey();
      const cases: [unknown, string][] = [
        [{}, '/body/email'],
        [{ email: 42 }, '/body/email'],
        [{ email: 'not-an-email' }, '/body/email'],
        [{ email: 'a@b.co', type: 'robot' }, '/body/type'],
        [{ email: 'a@b.co', colour: 'red' }, '/body/colour'],
        [{ email: 'a@b.co', policy: { limits: { perDay: -1 } } }, '/body/policy/limits/perDay'],
      ];
      for (const [body, field] of cases) {
        const answer = await h.call('POST', '/customers', { key, body });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body.error.code).toBe('invalid_request');
        expect(answer.body.error.details.field, JSON.stringify(body)).toBe(field);
        expect(answer.body.error.message).toContain(field.slice(1));
      }
      expect((await h.call('POST', '/customers', { key })).body.error.details.field).toBe('/body');
    });

    it('coerces and checks query parameters (limit 1..100, known parameters only)', async () => {
      const key = newKey();
      expect((await h.call('GET', '/customers?limit=100', { key })).status).toBe(200);
      for (const query of ['limit=0', 'limit=101', 'limit=ten', 'colour=red', 'cursor=abc']) {
        const answer = await h.call('GET', `/customers?${query}`, { key });
        expect(answer.status, query).toBe(400);
        expect(answer.body.error.details.field, query).toBe(`/query/${query.split('=')[0]}`);
      }
      const status = await h.call('GET', '/cards?status=melted', { key });
      expect(status.body.error.details).toMatchObject({ field: '/query/status' });
      expect(status.body.error.details.reason).toContain('must be one of');
    });

    it('reads a query string as URLSearchParams does: escapes, `+`, empty pairs and repeated names', async () => {
      const key = newKey();
      for (const query of ['limit=2', '&limit=2&', 'lim%69t=%32', 'limit=2&&status=active', 'status=%61ctive&limit=2']) {
        expect((await h.call('GET', `/cards?${query}`, { key })).status, query).toBe(200);
      }
      for (const [query, field] of [
        ['limit=1&limit=2', '/query/limit'],
        ['limit', '/query/limit'],
        ['status=active+', '/query/status'],
        ['__proto__=1', '/query/__proto__'],
        ['constructor=1', '/query/constructor'],
        ['limit=2&toString=x', '/query/toString'],
        ['lim%69t=1&__proto__=%7B%7D', '/query/__proto__'],
      ]) {
        const answer = await h.call('GET', `/cards?${query}`, { key });
        expect(answer.status, query).toBe(400);
        expect(answer.body.error.details.field, query).toBe(field);
      }
    });
  });

  describe('idempotency', () => {
    it('replays the first response for the same key and body, and refuses the key with another body', async () => {
      const key = newKey();
      const headers = { 'Idempotency-Key': 'create-ada' };
      const first = await h.call('POST', '/customers', { key, body: { email: 'ada@example.com' }, headers });
      // Same JSON value, other key order and spacing: the same request.
      const replay = await h.call('POST', '/customers', {
        key,
        rawBody: '{ "email" : "ada@example.com" }',
        headers,
      });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect((await h.call('GET', '/customers', { key })).body.data).toHaveLength(1);

      const reused = await h.call('POST', '/customers', { key, body: { email: 'bob@example.com' }, headers });
      expect(reused.status).toBe(400);
      expect(reused.body.error.code).toBe('idempotency_key_reused');
    });

    it('replays errors too, scopes keys to the organization, and forgets them after 24 hours of the test clock', async () => {
      const key = newKey();
      const headers = { 'Idempotency-Key': 'k1' };
      const invalid = await h.call('POST', '/customers', { key, body: { email: 1 }, headers });
      const again = await h.call('POST', '/customers', { key, body: { email: 1 }, headers });
      expect(again.status).toBe(400);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(invalid.body);

      const other = newKey();
      expect((await h.call('POST', '/customers', { key: other, body: { email: 'c@d.co' }, headers })).status).toBe(201);

      await h.call('POST', '/simulate/clock/advance', { key, body: { seconds: 24 * 3600 } });
      const fresh = await h.call('POST', '/customers', { key, body: { email: 'c@d.co' }, headers });
      expect(fresh.status).toBe(201);
      expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    });

    it('refuses the key on another path with the same method and body (400 idempotency_key_reused), running nothing', async () => {
      const key = newKey();
      const [ada, bob] = [(await createCustomer(key)).body, (await createCustomer(key)).body];
      const headers = { 'Idempotency-Key': 'tier-change-1' };
      const body = { metadata: { tier: 'gold' } };
      const first = await h.call('PATCH', `/customers/${ada.id}`, { key, body, headers });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: ada.id, metadata: { tier: 'gold' } });
      const events = (await h.call('GET', '/events', { key })).body.data.length;

      // Only the path differs: another customer, not a retry of the first request.
      const other = await h.call('PATCH', `/customers/${bob.id}`, { key, body, headers });
      expect(other.status).toBe(400);
      expect(other.headers.get('idempotent-replayed')).toBeNull();
      expect(other.body.error).toMatchObject({ code: 'idempotency_key_reused', details: { idempotencyKey: 'tier-change-1' } });
      expect((await h.call('GET', `/customers/${bob.id}`, { key })).body).toEqual(bob);
      expect((await h.call('GET', '/events', { key })).body.data).toHaveLength(events);

      // The first path still replays under the key; the same path in the other variant is another request too.
      const replay = await h.call('PATCH', `/customers/${ada.id}`, { key, body, headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      const user = await h.call('PATCH', `/users/${ada.id}`, { key, body, headers, variant: 'user' });
      expect(user.status).toBe(400);
      expect(user.body.error.code).toBe('idempotency_key_reused');
    });
  });

  describe('pagination', () => {
    it('walks every object once, newest first, while objects are created during the walk', async () => {
      const key = newKey();
      const created: string[] = [];
      for (let i = 0; i < 7; i++) created.push((await createCustomer(key)).body.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `limit=3&cursor=${cursor}` : 'limit=3';
        const page = await h.call('GET', `/customers?${query}`, { key });
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((c: { id: string }) => c.id));
        expect(page.body.hasMore).toBe(page.body.nextCursor !== null);
        cursor = page.body.nextCursor;
        await createCustomer(key);
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...created].reverse());
    });

    it('ends on a last page of exactly `limit` objects: hasMore false and no cursor', async () => {
      const key = newKey();
      const created: string[] = [];
      for (let i = 0; i < 6; i++) created.push((await createCustomer(key)).body.id);
      const first = await h.call('GET', '/customers?limit=3', { key });
      expect(first.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(3).reverse());
      expect(first.body.hasMore).toBe(true);
      const last = await h.call('GET', `/customers?limit=3&cursor=${first.body.nextCursor}`, { key });
      expect(last.status).toBe(200);
      expect(last.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(0, 3).reverse());
      expect(last.body.hasMore).toBe(false);
      expect(last.body.nextCursor).toBeNull();
    });

    it('uses 50 as the default page size', async () => {
      const key = newKey();
      for (let i = 0; i < 51; i++)
        await h.call('POST', '/webhooks', { key, body: { url: 'https://example.com/h', events: ['*'] } });
      const page = await h.call('GET', '/webhooks', { key });
      expect(page.body.data).toHaveLength(50);
      expect(page.body.hasMore).toBe(true);
    });
  });
});

describe.each(TRANSPORTS)('rate limits through %s', (transport) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(transport, { rateLimit: 3 });
  });
  afterAll(() => h.close());

  it('answers 429 rate_limited with Retry-After and RateLimit headers once a key used its minute', async () => {
    const key = newKey();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await h.call('GET', '/customers', { key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]?.headers.get('ratelimit-limit')).toBe('3');
    expect(answers[0]?.headers.get('ratelimit-remaining')).toBe('2');
    const limited = answers[3];
    expect(limited?.body.error.code).toBe('rate_limited');
    expect(limited?.headers.get('retry-after')).toBe('60');
    expect(limited?.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited?.headers.get('ratelimit-reset')).toBe('60');
    // Another key has its own budget; the limited key gets a new one when its minute is over.
    expect((await h.call('GET', '/customers', { key: newKey() })).status).toBe(200);
    h.mock.tenantOf(key)?.clock.moveTo(Date.parse('2026-11-21T12:01:00.000Z'));
    expect((await h.call('GET', '/customers', { key })).status).toBe(200);
  });
});

import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { Cardrail, CardrailError, CardrailUsers } from '../src/index.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();
const baseUrl = 'http://127.0.0.1:4010/v1';

interface Sent {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

function record(): Sent[] {
  const sent: Sent[] = [];
  server.use(
    http.all(`${baseUrl}/*`, async ({ request }) => {
      const text = await request.text();
      sent.push({
        method: request.method,
        path: new URL(request.url).pathname.replace('/v1', ''),
        body: text ? JSON.parse(text) : undefined,
        headers: request.headers,
      });
      return HttpResponse.json(
        { id: 'obj_1', data: [], nextCursor: null, hasMore: false },
        { status: request.method === 'POST' ? 201 : 200 },
      );
    }),
  );
  return sent;
}

/** `METHOD /path/{param}` for every operation of a bundled spec. */
function specOperations(variant: 'customer' | 'user'): string[] {
  const spec = JSON.parse(readFileSync(new URL(`../../spec/dist/${variant}.json`, import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ['get', 'post', 'patch', 'delete', 'put'].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Maps a concrete request back to the spec template it matches. */
function toTemplate(operations: string[], sent: Sent): string | undefined {
  return operations.find((operation) => {
    const [method, template] = operation.split(' ') as [string, string];
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return method === sent.method && pattern.test(sent.path);
  });
}

const shared = (client: Cardrail | CardrailUsers) => [
  () => client.agents.create({ customerId: 'cus_1', name: 'Shopper' } as never),
  () => client.agents.list({ limit: 5 }),
  () => client.agents.retrieve('agt_1'),
  () => client.agents.update('agt_1', { name: 'Renamed' } as never),
  () => client.agents.delete('agt_1'),
  () => client.agents.suspend('agt_1'),
  () => client.agents.activate('agt_1'),
  () => client.cards.create({ agentId: 'agt_1' } as never),
  () => client.cards.list(),
  () => client.cards.retrieve('card_1'),
  () => client.cards.update('card_1', { status: 'frozen' } as never),
  () => client.cards.freeze('card_1'),
  () => client.cards.close('card_1'),
  () => client.cards.policy('card_1'),
  () => client.cards.credentials('card_1'),
  () => client.paymentTokens.create('card_1', { mpp: { challenge: 'Payment id="ch_1"' } }),
  () => client.paymentTokens.list('card_1', { status: 'active' }),
  () => client.paymentTokens.retrieve('tok_1'),
  () => client.paymentTokens.revoke('tok_1'),
  () => client.intents.create({ cardId: 'card_1' } as never),
  () => client.intents.list(),
  () => client.intents.retrieve('int_1'),
  () => client.intents.approve('int_1'),
  () => client.intents.reject('int_1', {} as never),
  () => client.intents.mandate('int_1', { agentKey: { kty: 'EC' } }),
  () => client.mandates.receiptKeys(),
  () => client.mandates.rotateReceiptKeys(),
  () => client.transactions.list(),
  () => client.transactions.retrieve('txn_1'),
  () => client.spend.evaluate({ cardId: 'card_1' } as never),
  () => client.settings.risk.retrieve(),
  () => client.settings.risk.update({ preset: 'strict' } as never),
  () => client.webhooks.create({ url: 'https://example.com/hook', events: ['card.frozen'] } as never),
  () => client.webhooks.list(),
  () => client.webhooks.retrieve('wh_1'),
  () => client.webhooks.update('wh_1', { description: 'x' } as never),
  () => client.webhooks.delete('wh_1'),
  () => client.webhooks.rotateSecret('wh_1'),
  () => client.webhooks.resend('wh_1', 'evt_1'),
  () => client.webhooks.deliveries.list('wh_1'),
  () => client.webhooks.deliveries.retry('wh_1', 'whd_1'),
  () => client.events.list(),
  () => client.events.retrieve('evt_1'),
  () => client.apiKeys.create({ name: 'CI' } as never),
  () => client.apiKeys.list(),
  () => client.apiKeys.revoke('key_1'),
  () => client.withdrawals.create('cus_1', { amount: 100 } as never),
  () => client.withdrawals.retrieve('wd_1'),
  () =>
    client.simulate.authorize({
      cardId: 'card_1',
      amount: 100,
      currency: 'USD',
      merchant: { name: 'Shop', mcc: '5734' },
    } as never),
  () => client.simulate.settle('txn_1'),
  () => client.simulate.reverse('txn_1'),
  () => client.simulate.dispute('txn_1'),
  () => client.simulate.resolveDispute('dsp_1', { outcome: 'won' } as never),
  () => client.simulate.deposit({ amount: 100 } as never),
  () => client.simulate.confirmWithdrawal('wd_1'),
  () => client.simulate.failWithdrawal('wd_1'),
  () => client.simulate.kyc({ status: 'approved' } as never),
  () => client.simulate.clock.retrieve(),
  () => client.simulate.clock.advance({ seconds: 60 }),
];

const customerCalls = (client: Cardrail) => [
  ...shared(client),
  () => client.customers.create({ email: 'a@example.com' } as never),
  () => client.customers.list(),
  () => client.customers.retrieve('cus_1'),
  () => client.customers.update('cus_1', { email: 'b@example.com' } as never),
  () => client.customers.delete('cus_1'),
  () => client.customers.balances('cus_1'),
  () => client.customers.mandateIssuers('cus_1'),
  () => client.customers.setMandateIssuers('cus_1', { keys: [] }),
];

const userCalls = (client: CardrailUsers) => [
  ...shared(client),
  () => client.users.create({ email: 'a@example.com' } as never),
  () => client.users.list(),
  () => client.users.retrieve('cus_1'),
  () => client.users.update('cus_1', { email: 'b@example.com' } as never),
  () => client.users.delete('cus_1'),
  () => client.users.balances('cus_1'),
  () => client.users.mandateIssuers('cus_1'),
  () => client.users.setMandateIssuers('cus_1', { keys: [] }),
];

describe.each([
  ['customer', () => customerCalls(new Cardrail({ apiKey: 'sk_test_customerKey1', baseUrl }))],
  ['user', () => userCalls(new CardrailUsers({ apiKey: 'sk_test_userKey12345', baseUrl }))],
] as const)('%s variant', (variant, calls) => {
  it('reaches every operation of the spec exactly once through the namespaces', async () => {
    const sent = record();
    for (const call of calls()) await call();
    const operations = specOperations(variant);
    const reached = sent.map((request) => toTemplate(operations, request) ?? `unmatched ${request.method} ${request.path}`);
    expect([...reached].sort()).toEqual([...operations].sort());
  });

  it("authenticates with the variant's header and nothing else", async () => {
    const sent = record();
    await calls()[0]!();
    const headers = sent[0]!.headers;
    if (variant === 'customer') {
      expect(headers.get('authorization')).toBe('Bearer sk_test_customerKey1');
      expect(headers.get('api-key')).toBeNull();
    } else {
      expect(headers.get('api-key')).toBe('sk_test_userKey12345');
      expect(headers.get('authorization')).toBeNull();
    }
  });
});

describe('requests', () => {
  const cardrail = new Cardrail({ apiKey: 'sk_test_customerKey1', baseUrl });

  it('sends path parameters, the JSON body and an Idempotency-Key on a PATCH', async () => {
    const sent = record();
    await cardrail.cards.update('card_9', { status: 'frozen' });
    expect(sent[0]).toMatchObject({ method: 'PATCH', path: '/cards/card_9', body: { status: 'frozen' } });
    expect(sent[0]!.headers.get('content-type')).toBe('application/json');
    expect(sent[0]!.headers.get('idempotency-key')).toMatch(/^idk_/);
  });

  it('encodes path parameters', async () => {
    const sent = record();
    await cardrail.cards.retrieve('card 1/2');
    expect(sent[0]!.path).toBe('/cards/card%201%2F2');
  });

  it('refuses an empty, `.` or `..` id before sending, instead of addressing another resource', async () => {
    const sent = record();
    const users = new CardrailUsers({ apiKey: 'sk_test_userKey12345', baseUrl });
    const calls = [
      () => cardrail.cards.retrieve(''),
      () => cardrail.cards.freeze('..'),
      () => cardrail.customers.retrieve('.'),
      () => users.users.balances(''),
      () => cardrail.withdrawals.create('', { amount: 100, chainId: 1, recipientAddress: '0x0' }),
      () => cardrail.webhooks.deliveries.retry('wh_1', ''),
      () => cardrail.webhooks.deliveries.list(''),
      () => cardrail.cards.retrieve(undefined as unknown as string),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ constructor: CardrailError, code: 'invalid_path_parameter' });
    }
    await expect(cardrail.cards.retrieve('')).rejects.toThrow('cardId must be a non-empty id, got "".');
    expect(sent).toEqual([]);
  });

  it('sends list filters and limit as query parameters', async () => {
    const requests: URL[] = [];
    server.use(
      http.get(`${baseUrl}/cards`, ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json({ data: [], nextCursor: null, hasMore: false });
      }),
    );
    await cardrail.cards.list({ limit: 10, agentId: 'agt_1', status: 'active' });
    expect(Object.fromEntries(requests[0]!.searchParams)).toEqual({ limit: '10', agentId: 'agt_1', status: 'active' });
  });

  it('lets the caller pick the idempotency key of a POST without a body', async () => {
    const sent = record();
    await cardrail.cards.freeze('card_1', { idempotencyKey: 'freeze-card_1' });
    expect(sent[0]!.headers.get('idempotency-key')).toBe('freeze-card_1');
    expect(sent[0]!.body).toBeUndefined();
  });

  it('binds every method to its client, so a method can be passed around on its own', async () => {
    const sent = record();
    const { retrieve } = cardrail.cards;
    const freeze = cardrail.cards.freeze;
    const { list } = cardrail.webhooks.deliveries;
    await retrieve('card_1');
    await Promise.all(['card_2', 'card_3'].map((cardId) => freeze(cardId)));
    await list('wh_1', { limit: 2 });
    expect(sent.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /cards/card_1',
      'POST /cards/card_2/freeze',
      'POST /cards/card_3/freeze',
      'GET /webhooks/wh_1/deliveries',
    ]);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer sk_test_customerKey1');
  });

  it('sends no Idempotency-Key on GET and DELETE', async () => {
    const sent = record();
    await cardrail.cards.retrieve('card_1');
    await cardrail.webhooks.delete('wh_1');
    expect(sent.map((request) => request.headers.get('idempotency-key'))).toEqual([null, null]);
  });

  it('exposes the typed openapi-fetch client as raw', async () => {
    const sent = record();
    const { data, response } = await cardrail.raw.GET('/cards/{cardId}/policy', { params: { path: { cardId: 'card_1' } } });
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ id: 'obj_1' });
    expect(sent[0]).toMatchObject({ method: 'GET', path: '/cards/card_1/policy' });
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer sk_test_customerKey1');
  });

  it('retries raw calls too, with one idempotency key', async () => {
    const keys: Array<string | null> = [];
    server.use(
      http.post(`${baseUrl}/cards/:cardId/close`, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length === 1
          ? HttpResponse.json(
              { error: { code: 'unavailable', message: 'try again', details: null } },
              { status: 503, headers: { 'retry-after-ms': '0' } },
            )
          : HttpResponse.json({ id: 'card_1' });
      }),
    );
    const { data } = await cardrail.raw.POST('/cards/{cardId}/close', { params: { path: { cardId: 'card_1' } } });
    expect(data).toMatchObject({ id: 'card_1' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('derives a client of the same variant with other options from withOptions, leaving the original as it was', async () => {
    const sent = record();
    const base = new Cardrail({ apiKey: 'sk_test_customerKey1', baseUrl, defaultHeaders: { 'X-Team': 'payments' } });
    const derived = base.withOptions({ apiKey: 'sk_live_otherKey123' });
    expect(derived).toBeInstanceOf(Cardrail);
    expect([base.mode, derived.mode]).toEqual(['test', 'live']);
    await derived.cards.retrieve('card_1');
    await base.cards.retrieve('card_1');
    expect(sent.map((request) => [request.headers.get('authorization'), request.headers.get('x-team')])).toEqual([
      ['Bearer sk_live_otherKey123', 'payments'],
      ['Bearer sk_test_customerKey1', 'payments'],
    ]);

    const users = new CardrailUsers({ apiKey: 'sk_test_userKey12345', baseUrl: 'http://127.0.0.1:1/v1' }).withOptions({
      baseUrl,
    });
    expect(users).toBeInstanceOf(CardrailUsers);
    await users.users.retrieve('cus_1');
    expect(sent[2]).toMatchObject({ method: 'GET', path: '/users/cus_1' });
    expect(sent[2]!.headers.get('api-key')).toBe('sk_test_userKey12345');
  });

  it('exposes mode and the default production base URL', () => {
    expect(new Cardrail({ apiKey: 'sk_live_abcdefgh1' }).mode).toBe('live');
    expect(new CardrailUsers({ apiKey: 'sk_test_abcdefgh1' }).baseUrl).toBe('https://api.cardrail.dev/v1');
    expect(() => new CardrailUsers({ apiKey: 'rk_test_abcdefgh1' })).toThrow(/sk_test_/);
  });
});

describe('observability', () => {
  it('logs a user-variant call at debug level without the Api-Key header value or the webhook secret of the response', async () => {
    const apiKey = 'sk_test_userSecretKey987';
    const secret = 'whsec_5ecretSigningKey_abcdefghijklmnop';
    server.use(
      http.post(`${baseUrl}/webhooks`, () =>
        HttpResponse.json(
          { id: 'wh_1', url: 'https://example.com/hook', secret },
          { status: 201, headers: { 'Request-Id': 'req_wh' } },
        ),
      ),
    );
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    const client = new CardrailUsers({ apiKey, baseUrl, logLevel: 'debug', logger });
    const created = await client.webhooks.create({ url: 'https://example.com/hook', events: ['card.frozen'] } as never);
    expect(created).toMatchObject({ secret });
    const logged = JSON.stringify(Object.values(logger).map((method) => method.mock.calls));
    expect(logger.debug).toHaveBeenCalled();
    expect(logged).toContain('"api-key":"[redacted]"');
    expect(logged).toContain('req_wh');
    expect(logged).not.toContain('userSecretKey987');
    expect(logged).not.toContain('5ecretSigningKey');
  });
});

describe('per-call headers', () => {
  it('override default headers, and an Idempotency-Key header of the caller is kept as is', async () => {
    const sent = record();
    const client = new Cardrail({
      apiKey: 'sk_test_customerKey1',
      baseUrl,
      defaultHeaders: { 'X-Team': 'payments', 'X-Env': 'ci' },
    });
    await client.cards.freeze('card_1', { headers: { 'X-Team': 'risk', 'Idempotency-Key': 'from-header-1' } });
    expect(sent[0]!.headers.get('x-team')).toBe('risk');
    expect(sent[0]!.headers.get('x-env')).toBe('ci');
    expect(sent[0]!.headers.get('idempotency-key')).toBe('from-header-1');
  });
});

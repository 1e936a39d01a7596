// A tour of the API that leaves a mock with every kind of state (both variants, a second mode, money, limits,
// intents open and closed, TTLs pending, webhooks with delivered, failed and pending deliveries, an idempotency key,
// advanced clocks), and the requests that read it back or continue from it. The state tests run it against a mock,
// then compare that mock with one restored from its snapshot, or rebuilt from its journal.
import type { MockServer, MockServerOptions } from '../../src/index.js';
import type { FetchFunction } from '../../src/webhooks/dispatcher.js';

export const TOUR_KEY = 'sk_test_statetour0001';
export const TOUR_START = '2026-11-23T12:00:00.000Z';
const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export interface TourCall {
  method: string;
  path: string;
  body?: unknown;
  variant?: 'customer' | 'user';
  key?: string;
  headers?: Record<string, string>;
}

export interface TourAnswer {
  status: number;
  body: string;
  replayed: string | null;
}

/** Webhook receivers by host: `ok.` answers 200, `down.` answers 503 (its deliveries stay pending, retried). */
export function fakeReceivers(): { fetch: FetchFunction; received: string[] } {
  const received: string[] = [];
  const fetch: FetchFunction = async (url, init) => {
    const headers = init.headers as Record<string, string>;
    received.push(`${url} ${headers['Cardrail-Signature']} ${String(init.body)}`);
    return new Response('ok', { status: new URL(url).hostname.startsWith('ok.') ? 200 : 503 });
  };
  return { fetch, received };
}

export function tourOptions(fetch: FetchFunction): MockServerOptions {
  return { frozenClock: TOUR_START, seed: 'state-tour', validateResponses: true, fetch };
}

export async function call(mock: MockServer, request: TourCall): Promise<TourAnswer> {
  const key = request.key ?? TOUR_KEY;
  const headers: Record<string, string> = request.variant === 'user' ? { 'Api-Key': key } : { Authorization: `Bearer ${key}` };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await mock.handle(
    new Request(`http://127.0.0.1:4010/v1${request.path}`, {
      method: request.method,
      headers: { ...headers, ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    }),
  );
  return { status: response.status, body: await response.text(), replayed: response.headers.get('idempotent-replayed') };
}

async function ok(mock: MockServer, request: TourCall): Promise<any> {
  const answer = await call(mock, request);
  if (answer.status >= 300) throw new Error(`${request.method} ${request.path} answered ${answer.status}: ${answer.body}`);
  return JSON.parse(answer.body);
}

export interface TourIds {
  customerId: string;
  userId: string;
  agentId: string;
  cardId: string;
  ttlCardId: string;
  limitedCardId: string;
  openIntentId: string;
  awaitingIntentId: string;
  transactionId: string;
  settledId: string;
  disputeId: string;
  withdrawalId: string;
  okWebhookId: string;
  downWebhookId: string;
  userWebhookId: string;
  liveKey: string;
  revokedKeyId: string;
}

/** Builds the state. */
export async function runTour(mock: MockServer): Promise<TourIds> {
  const post = (path: string, body?: unknown, extra: Partial<TourCall> = {}) =>
    ok(mock, { method: 'POST', path, body, ...extra });
  const okHook = await post('/webhooks', { url: 'https://ok.example.test/hooks', events: ['*'] });
  const downHook = await post('/webhooks', {
    url: 'https://down.example.test/hooks',
    events: ['card.frozen', 'transaction.created'],
  });
  const userHook = await post('/webhooks', { url: 'https://ok.example.test/user', events: ['*'] }, { variant: 'user' });

  const customer = await post(
    '/customers',
    { email: 'ada@example.com', metadata: { team: { name: 'ops', tags: ['a'] } } },
    {
      headers: { 'Idempotency-Key': 'tour-customer' },
    },
  );
  await post('/simulate/kyc', { customerId: customer.id, status: 'approved' });
  await post('/simulate/deposits', { customerId: customer.id, amount: 500_000 });
  const user = await post('/users', { email: 'grace@example.com' }, { variant: 'user' });
  const agent = await post('/agents', {
    customerId: customer.id,
    name: 'Buyer',
    limits: { amount: 60_000, currency: 'usd', interval: 'daily' },
  });
  const card = await post('/cards', { customerId: customer.id, agentId: agent.id, merchantHint: 'OpenAI' });
  const limited = await post('/cards', { customerId: customer.id, agentId: agent.id, policy: { limits: { perDay: 5_000 } } });
  const ttlCard = await post('/cards', { customerId: customer.id, agentId: agent.id, policy: { ttlMinutes: 600 } });
  await ok(mock, { method: 'PATCH', path: '/settings/risk', body: { preset: 'strict', dryRun: true } });

  const matchedIntent = await post('/intents', {
    cardId: card.id,
    summary: 'GPU',
    expectedAmount: 2_000,
    expectedMerchant: 'OpenAI',
  });
  await post(`/cards/${card.id}/credentials`, { intentId: matchedIntent.id });
  const txn = await post('/simulate/authorize', {
    cardId: card.id,
    amount: 2_000,
    currency: 'usd',
    merchant: { name: 'OpenAI', mcc: '5734' },
  });
  const settled = await post('/simulate/authorize', {
    cardId: card.id,
    amount: 3_000,
    currency: 'usd',
    merchant: { name: 'AWS' },
  });
  await post(`/simulate/transactions/${settled.id}/settle`, { amount: 2_500 });
  await post(`/simulate/transactions/${settled.id}/reverse`, { amount: 500 });
  const dispute = await post(`/simulate/transactions/${settled.id}/dispute`, {});
  await post('/simulate/authorize', { cardId: limited.id, amount: 4_000, currency: 'usd', merchant: { name: 'Steam' } });
  const withdrawal = await post(`/customers/${customer.id}/withdrawals`, {
    amount: 100,
    chainId: 8453,
    recipientAddress: RECIPIENT,
  });
  const openIntent = await post('/intents', { cardId: card.id, summary: 'Later', expectedAmount: 700, ttlMinutes: 300 });
  const guarded = await post('/cards', { customerId: customer.id, policy: { requireApproval: true } });
  const awaiting = await post('/intents', { cardId: guarded.id, summary: 'Needs a yes', expectedAmount: 900, ttlMinutes: 400 });
  await post(`/cards/${card.id}/freeze`);
  await post('/simulate/clock/advance', { seconds: 90 });

  const live = await post('/api-keys', { name: 'live', mode: 'live' });
  await ok(mock, { method: 'POST', path: '/customers', body: { email: 'live@example.com' }, key: live.key });
  const revoked = await post('/api-keys', { name: 'old' });
  await ok(mock, { method: 'DELETE', path: `/api-keys/${revoked.id}` });
  await mock.idle();
  return {
    customerId: customer.id,
    userId: user.id,
    agentId: agent.id,
    cardId: card.id,
    ttlCardId: ttlCard.id,
    limitedCardId: limited.id,
    openIntentId: openIntent.id,
    awaitingIntentId: awaiting.id,
    transactionId: txn.id,
    settledId: settled.id,
    disputeId: dispute.id,
    withdrawalId: withdrawal.id,
    okWebhookId: okHook.id,
    downWebhookId: downHook.id,
    userWebhookId: userHook.id,
    liveKey: live.key,
    revokedKeyId: revoked.id,
  };
}

/** Reads of everything the tour made, in both variants. */
export function readBack(ids: TourIds): TourCall[] {
  const get = (path: string, variant: 'customer' | 'user' = 'customer', key?: string): TourCall => ({
    method: 'GET',
    path,
    variant,
    key,
  });
  const lists = ['/customers', '/agents', '/cards', '/intents', '/transactions', '/webhooks', '/api-keys', '/events'];
  return [
    ...lists.flatMap((path) => [get(`${path}?limit=100`), get(`${path}?limit=3`)]),
    ...['/users', '/cards', '/events', '/intents', '/webhooks'].map((path) => get(`${path}?limit=100`, 'user')),
    get('/events?limit=100&type=card.frozen'),
    get(`/customers/${ids.customerId}`),
    get(`/customers/${ids.customerId}/balances`),
    get(`/users/${ids.userId}`, 'user'),
    get(`/agents/${ids.agentId}`),
    get(`/cards/${ids.cardId}`),
    get(`/cards/${ids.cardId}`, 'user'),
    get(`/cards/${ids.cardId}/policy`),
    get(`/cards/${ids.ttlCardId}`),
    get(`/cards/${ids.limitedCardId}/policy`),
    get(`/intents/${ids.openIntentId}`),
    get(`/transactions/${ids.settledId}`),
    get(`/withdrawals/${ids.withdrawalId}`),
    get(`/webhooks/${ids.okWebhookId}/deliveries?limit=100`),
    get(`/webhooks/${ids.downWebhookId}/deliveries?limit=100`),
    get(`/webhooks/${ids.userWebhookId}/deliveries?limit=100`, 'user'),
    get('/settings/risk'),
    get('/simulate/clock'),
    get('/customers?limit=100', 'customer', ids.liveKey),
  ];
}

/** Requests that continue from the state: they depend on the derived state (aggregates, timers, retries, replays). */
export function carryOn(ids: TourIds): TourCall[] {
  const post = (path: string, body?: unknown, extra: Partial<TourCall> = {}): TourCall => ({
    method: 'POST',
    path,
    body,
    ...extra,
  });
  const spend = (cardId: string, amount: number, name = 'OpenAI') =>
    post('/simulate/authorize', { cardId, amount, currency: 'usd', merchant: { name, mcc: '5734' } });
  return [
    post(
      '/customers',
      { email: 'ada@example.com', metadata: { team: { name: 'ops', tags: ['a'] } } },
      { headers: { 'Idempotency-Key': 'tour-customer' } },
    ),
    post('/spend/evaluate', { cardId: ids.limitedCardId, amount: 1_500, currency: 'usd', merchant: { name: 'Steam' } }),
    spend(ids.limitedCardId, 1_500, 'Steam'),
    post(`/cards/${ids.cardId}/credentials`, { intentId: ids.openIntentId }),
    post(`/intents/${ids.awaitingIntentId}/approve`),
    post(`/simulate/disputes/${ids.disputeId}/resolve`, { outcome: 'won' }),
    post(`/simulate/withdrawals/${ids.withdrawalId}/confirm`),
    spend(ids.ttlCardId, 1_000),
    spend(ids.ttlCardId, 1_000),
    post('/simulate/clock/advance', { seconds: 6 * 3600 }),
    spend(ids.ttlCardId, 1_000),
    post('/simulate/clock/advance', { seconds: 26 * 3600 }),
    post('/customers', { email: 'late@example.com' }),
    { method: 'GET', path: '/events?limit=100' },
    { method: 'GET', path: `/webhooks/${ids.downWebhookId}/deliveries?limit=100` },
    { method: 'GET', path: `/cards/${ids.ttlCardId}` },
    { method: 'GET', path: '/intents?limit=100' },
  ];
}

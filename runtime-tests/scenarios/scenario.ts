// What every runtime must do with the SDK and the mock, written once and run in each of them (Node, Bun, Deno,
// workerd, a browser page). Modules come in as arguments, so each runtime imports the packages its own way (its
// export conditions pick the builds) and the scenario itself imports nothing. Every step that passes adds its name
// to the list returned; the test compares the list with the steps it expects, so a step that silently did not run
// fails the test.
import type * as Mock from '@cardrail/mock-server';
import type * as Sdk from '@cardrail/sdk';

type SdkModule = typeof Sdk;
type CreateMockServer = typeof Mock.createMockServer;

class ScenarioFailure extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ScenarioFailure(message);
}

/** Runs `body`, which must throw an instance of `type`; returns the error. */
async function rejects<T>(body: () => unknown, type: abstract new (...args: never[]) => T, what: string): Promise<T> {
  try {
    await body();
  } catch (error) {
    check(error instanceof type, `${what}: expected ${type.name}, got ${String(error)}`);
    return error;
  }
  throw new ScenarioFailure(`${what}: expected ${type.name}, but it succeeded`);
}

/** A test-mode key of its own for each run: the mock creates its organization on first use. */
export function freshKey(): string {
  const letters = Array.from(
    crypto.getRandomValues(new Uint8Array(24)),
    (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36],
  );
  return `sk_test_${letters.join('')}`;
}

/**
 * The API through the SDK: create a customer, an agent and three cards, list them a page at a time and by async
 * iteration, and read an unknown card as a typed NotFoundError that carries the response's Request-Id.
 */
export async function apiSteps(sdk: SdkModule, client: Sdk.Cardrail): Promise<string[]> {
  const steps: string[] = [];
  const customer = await client.customers.create({ email: 'ada@example.com', name: { first: 'Ada', last: 'Lovelace' } });
  check(customer.id.startsWith('cus_'), `customer id ${customer.id}`);
  const agent = await client.agents.create({ customerId: customer.id, name: 'Runtime agent' });
  const cards = [];
  for (let i = 0; i < 3; i++) cards.push(await client.cards.create({ customerId: customer.id, agentId: agent.id }));
  check(
    cards.every((card) => card.id.startsWith('card_')),
    'card ids',
  );
  steps.push('create');

  const first = await client.cards.list({ agentId: agent.id, limit: 2 });
  check(first.data.length === 2 && first.hasMore, `first page: ${first.data.length} cards, hasMore ${first.hasMore}`);
  const second = await first.getNextPage();
  check(second.data.length === 1 && !second.hasMore, `second page: ${second.data.length} cards`);
  steps.push('list pages');

  const iterated: string[] = [];
  for await (const card of client.cards.list({ agentId: agent.id, limit: 2 })) iterated.push(card.id);
  check(
    iterated.length === 3 && cards.every((card) => iterated.includes(card.id)),
    `async iteration gave ${iterated.join(', ')}`,
  );
  steps.push('async iteration');

  const missing = await rejects(() => client.cards.retrieve('card_doesnotexist'), sdk.NotFoundError, 'retrieve an unknown card');
  check(missing.status === 404 && missing.code === 'not_found', `not found: ${missing.status} ${missing.code}`);
  check(missing.requestId?.startsWith('req_') === true, `the error's requestId is ${missing.requestId}`);
  steps.push('typed error');
  return steps;
}

/** A delivery as a receiver gets it: the raw body and the request's headers. */
export interface Delivery {
  payload: string;
  headers: Headers;
  secret: string;
  type: string;
}

/**
 * The webhook functions of this runtime's build on a delivery: verify and construct from the Cardrail-Signature
 * header, refuse a forgery, unwrap from the request's headers (both schemes), refuse headers whose schemes disagree.
 */
export async function webhookSteps(sdk: SdkModule, delivery: Delivery, sync: 'available' | 'unavailable'): Promise<string[]> {
  const steps: string[] = [];
  const { payload, headers, secret } = delivery;
  const header = headers.get(sdk.SIGNATURE_HEADER);
  check(header !== null, 'the delivery carries a Cardrail-Signature header');
  await sdk.verifySignature({ payload, header, secret });
  const event = await sdk.constructEvent({ payload, header, secret });
  check(event.type === delivery.type, `constructEvent gave a ${event.type} event, expected ${delivery.type}`);
  const forged = await rejects(
    () => sdk.verifySignature({ payload: payload.replace('"', '" '), header, secret }),
    sdk.WebhookVerificationError,
    'a changed payload',
  );
  check(forged.code === 'signature_mismatch', `a changed payload: ${forged.code}`);
  steps.push('verifySignature', 'constructEvent');

  check(headers.get('webhook-signature')?.startsWith('v1,'), 'the delivery carries the Standard Webhooks headers');
  check((await sdk.unwrap(payload, headers, secret)).id === event.id, 'unwrap gave another event');
  const mixed = new Headers(headers);
  mixed.set('webhook-id', 'whd_another');
  const disagreeing = await rejects(() => sdk.unwrap(payload, mixed, secret), sdk.WebhookVerificationError, 'mixed headers');
  check(disagreeing.code === 'conflicting_headers', `headers whose schemes disagree: ${disagreeing.code}`);
  steps.push('unwrap (both schemes)');

  if (sync === 'available') {
    sdk.verifySignatureSync({ payload, header, secret });
    check(sdk.constructEventSync({ payload, header, secret }).id === event.id, 'constructEventSync gave another event');
    steps.push('verifySignatureSync', 'constructEventSync');
  } else {
    // Web Crypto has no synchronous HMAC: the sync forms say so, with their own error code.
    const unavailable = await rejects(() => sdk.verifySignatureSync({ payload, header, secret }), sdk.CardrailError, 'sync');
    check(unavailable.code === 'webhook_sync_unavailable', `verifySignatureSync: ${unavailable.code}`);
    steps.push('sync forms refused');
  }
  return steps;
}

/**
 * The mock in-process (`createMockServer().handle` as the SDK's fetch): the API steps, then a webhook the mock signs
 * and delivers (through its `fetch` option), verified by the SDK.
 */
export async function inProcessSteps(
  sdk: SdkModule,
  createMockServer: CreateMockServer,
  sync: 'available' | 'unavailable',
): Promise<string[]> {
  const deliveries: Request[] = [];
  const mock = createMockServer({
    fetch: async (url, init) => {
      deliveries.push(new Request(url, init));
      return new Response(null, { status: 204 });
    },
  });
  const client = new sdk.Cardrail({ apiKey: freshKey(), baseUrl: 'https://api.cardrail.dev/v1', fetch: mock.handle });
  const steps = await apiSteps(sdk, client);

  const hook = await client.webhooks.create({ url: 'https://hooks.example.test/cardrail', events: ['card.frozen'] });
  const customer = await client.customers.create({ email: 'grace@example.com' });
  const agent = await client.agents.create({ customerId: customer.id, name: 'Webhook agent' });
  const card = await client.cards.create({ customerId: customer.id, agentId: agent.id });
  await client.cards.freeze(card.id);
  await mock.idle();
  const delivered = deliveries.find((request) => request.url === 'https://hooks.example.test/cardrail');
  check(delivered, `no delivery to the webhook (deliveries: ${deliveries.map((request) => request.url).join(', ')})`);
  steps.push('webhook delivered');
  const payload = await delivered.text();
  check(hook.secret !== undefined, 'the webhook create answer carries its secret');
  const delivery = { payload, headers: delivered.headers, secret: hook.secret, type: 'card.frozen' };
  steps.push(...(await webhookSteps(sdk, delivery, sync)));
  mock.reset();
  return steps.map((step) => `in-process: ${step}`);
}

/**
 * Response checks (`validateResponses`): the first one loads the spec documents, which the package ships
 * gzip-compressed and decompresses with `DecompressionStream`. Not in workerd, which compiles no code at run time.
 */
export async function responseCheckSteps(sdk: SdkModule, createMockServer: CreateMockServer): Promise<string[]> {
  const mock = createMockServer({ validateResponses: true });
  const client = new sdk.Cardrail({ apiKey: freshKey(), baseUrl: 'https://api.cardrail.dev/v1', fetch: mock.handle });
  const customer = await client.customers.create({ email: 'ada@example.com' });
  check(customer.id.startsWith('cus_'), `customer id ${customer.id}`);
  await rejects(() => client.cards.retrieve('card_doesnotexist'), sdk.NotFoundError, 'an unknown card');
  return [RESPONSE_CHECK_STEP];
}

export const RESPONSE_CHECK_STEP = 'in-process: answers checked against the spec documents';

/** The standalone mock over HTTP at `baseUrl` (its CLI, started by the test in this runtime). */
export async function overHttpSteps(sdk: SdkModule, baseUrl: string): Promise<string[]> {
  const client = new sdk.Cardrail({ apiKey: freshKey(), baseUrl, maxRetries: 0 });
  return (await apiSteps(sdk, client)).map((step) => `over HTTP: ${step}`);
}

/** The steps each scenario reports when everything ran, for the tests to compare with. */
export const EXPECTED_API_STEPS = ['create', 'list pages', 'async iteration', 'typed error'];

export function expectedInProcessSteps(sync: 'available' | 'unavailable'): string[] {
  const webhook =
    sync === 'available'
      ? ['verifySignature', 'constructEvent', 'unwrap (both schemes)', 'verifySignatureSync', 'constructEventSync']
      : ['verifySignature', 'constructEvent', 'unwrap (both schemes)', 'sync forms refused'];
  return [...EXPECTED_API_STEPS, 'webhook delivered', ...webhook].map((step) => `in-process: ${step}`);
}

export const EXPECTED_OVER_HTTP_STEPS = EXPECTED_API_STEPS.map((step) => `over HTTP: ${step}`);

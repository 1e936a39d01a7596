import { createMockServer } from '@cardrail/mock-server';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { badBodies, badQueries, FUZZ_SEED } from '../src/fuzz.js';
import { ContractRecorder, type CheckName } from '../src/recorder.js';
import { authHeaders, buildBadRequest, buildRequest, exampleBodyFor, validBodies } from '../src/request-builder.js';
import { createAgentFor, type ScenarioContext, type VariantClient } from '../src/scenario/context.js';
import { authorize, createOwner, issueCard, owners, statusOf } from '../src/scenario/variant-ops.js';
import { HTTP_METHODS, loadSpecs, VARIANTS, type OperationInfo, type Variant } from '../src/spec.js';
import { WebhookReceiver } from '../src/webhook-receiver.js';
import { useContractChecks, type Harness } from './support/harness.js';
import { newSeededOrganization, type SeededIds } from './support/seed.js';

/**
 * The checks Schemathesis runs, one named group each, over every operation of both variants, against the
 * mock in-process. A sweep sends every operation, each in a seeded organization of its own, a well-formed request
 * (which must succeed, so that the success response is judged too), an invalid parameter, an unknown id and no
 * credentials; the five response checks then judge every exchange of the operation (429 is judged in
 * documented-statuses.test.ts, on a rate-limited mock).
 */
const BASE = 'http://mock.invalid/v1';
// Deliveries answered in-process: a sweep that needs a delivery to retry must not reach the network.
const mock = createMockServer({ fetch: async () => new Response('ok') });
const recorder = new ContractRecorder({ suite: 'checks', baseFetch: (request) => mock.handle(request) });
const harness: Harness = {
  name: 'checks',
  recorder,
  receiver: new WebhookReceiver(recorder),
  baseUrl: () => BASE,
  idle: () => mock.idle(),
  stop: async () => mock.reset(),
};
useContractChecks(() => harness);
const specs = loadSpecs();
const send = (request: Request) => recorder.fetch(request);

interface Org {
  apiKey: string;
  vc: VariantClient;
  ctx: ScenarioContext;
  ids: SeededIds;
}
const orgs = new Map<Variant, Org>();

async function newOrg(variant: Variant): Promise<Org> {
  const { apiKey, ctx, ids, failures } = await newSeededOrganization(harness, variant);
  expect(failures).toEqual([]);
  return { apiKey, vc: ctx.vc, ctx, ids };
}

function org(variant: Variant): Org {
  const found = orgs.get(variant);
  if (!found) throw new Error(`no ${variant} organization: the sweep did not run`);
  return found;
}

const allOps = VARIANTS.flatMap((variant) => specs[variant].operations);
const label = (op: OperationInfo) => `${op.variant} ${op.operationId} (${op.method.toUpperCase()} ${op.path})`;

/**
 * What the well-formed request of an operation needs beyond a seeded organization to succeed: the seeded agent is
 * active, the seeded intent already matched, the seeded transaction smaller than the example's reversal, and the
 * seeded webhook never delivers.
 */
const PREPARE: Partial<Record<string, (org: Org) => Promise<void>>> = {
  activateAgent: async ({ ctx, ids }) => {
    await ctx.vc.client.agents.suspend(ids.get('agentId') as string);
  },
  approveIntent: intentPendingApproval,
  rejectIntent: intentPendingApproval,
  createCardCredentials: async ({ ctx, ids }) => {
    const intent = await ctx.vc.client.intents.create({
      cardId: ids.get('cardId') as string,
      summary: 'credentials',
      expectedAmount: 2_500,
    });
    ids.set('intentId', intent.id);
  },
  // The seeded intent is matched: an export needs a pending one.
  createIntentMandate: async ({ ctx, ids }) => {
    const intent = await ctx.vc.client.intents.create({
      cardId: ids.get('cardId') as string,
      summary: 'mandate',
      expectedAmount: 2_500,
    });
    ids.set('intentId', intent.id);
  },
  simulateReversal: async ({ ctx, ids }) => {
    const transaction = await authorize(ctx, ids.get('cardId') as string, 5_000, 'Reversible');
    ids.set('transactionId', transaction.id);
  },
  retryWebhookDelivery: deliveryToRetry,
};

async function intentPendingApproval({ ctx, ids }: Org): Promise<void> {
  const client = ctx.vc.client;
  const agent = await createAgentFor(ctx.vc, ids.get('customerId') as string, {
    name: 'approver',
    policy: { requireApproval: true },
  });
  const card = await issueCard(ctx, { agentId: agent.id });
  const intent = await client.intents.create({ cardId: card, summary: 'needs approval', expectedAmount: 500 });
  ids.set('intentId', intent.id);
}

async function deliveryToRetry({ ctx, ids }: Org): Promise<void> {
  const client = ctx.vc.client;
  const hook = await client.webhooks.create({ url: 'https://hooks.example.com/sweep', events: ['*'] });
  await owners(ctx.vc).update(ids.get('customerId') as string, { metadata: { swept: true } });
  await mock.idle();
  const [delivery] = (await client.webhooks.deliveries.list(hook.id, { limit: 1 })).data;
  if (!delivery) throw new Error('the mock made no delivery to retry');
  ids.set('webhookId', hook.id).set('deliveryId', delivery.id);
}

beforeAll(async () => {
  for (const variant of VARIANTS) orgs.set(variant, await newOrg(variant));
  // The sweep: each operation, in a seeded organization of its own (operations close, delete and move objects on),
  // once well-formed (the spec's example body, pointing at real objects), once with an undeclared query parameter,
  // once with unknown ids and once without credentials.
  for (const op of allOps) {
    const swept = await newOrg(op.variant);
    await PREPARE[op.operationId]?.(swept);
    const { apiKey, ids } = swept;
    const auth = authHeaders(op.variant, apiKey);
    const body = exampleBodyFor(op, ids);
    await send(buildRequest(op, BASE, ids, auth, body));
    await send(buildRequest(op, BASE, ids, auth, body, '?notAParameter=1'));
    if (op.pathParams.length > 0) await send(buildRequest(op, BASE, new Map(), auth, body));
    await send(buildRequest(op, BASE, ids, {}, body));
  }
  await mock.idle();
  // Every violation of the sweep is judged below, check by check and operation by operation.
  recorder.takeNewViolations();
}, 120_000);

function responseCheck(check: CheckName, title: string): void {
  describe(title, () => {
    it.each(allOps.map((op) => [label(op), op] as const))('%s', (_name, op) => {
      const exchanges = recorder.exchangesOf(op.variant, op.operationId);
      // The success response is judged too, not only the errors every operation answers alike.
      expect(
        exchanges.filter((e) => e.status < 300).map((e) => e.status),
        'the well-formed request succeeded',
      ).not.toEqual([]);
      expect(exchanges.flatMap((e) => e.violations.filter((v) => v.check === check))).toEqual([]);
    });
  });
}

responseCheck('not_a_server_error', 'not a server error');
responseCheck('status_code_conformance', 'status code conformance');
responseCheck('content_type_conformance', 'content-type conformance');
responseCheck('response_headers_conformance', 'response header conformance');
responseCheck('response_schema_conformance', 'response schema conformance');

describe('negative data rejection', () => {
  it.each(allOps.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, ids } = org(op.variant);
    const kinds = [badBodies(op, specs[op.variant]), badQueries(op, specs[op.variant])].filter((k) => k !== undefined);
    if (kinds.length === 0) throw new Error('no bad input generated');
    for (const c of kinds.flatMap((cases) => fc.sample(cases, { seed: FUZZ_SEED, numRuns: 3 }))) {
      const response = await send(buildBadRequest(op, BASE, ids, authHeaders(op.variant, apiKey), c));
      expect({ kind: c.kind, status: response.status }).toEqual({
        kind: c.kind,
        status: expect.toSatisfy((s: number) => s >= 400 && s < 500, 'a 4xx'),
      });
    }
  });
});

/**
 * Operations for which a schema-valid body (ids pointing at real objects) must be accepted whatever else it says.
 * Operations left out depend on the state of their object (approving an intent twice is rightly refused).
 */
const ACCEPTS_ANY_VALID_BODY = new Set([
  'createCustomer',
  'createUser',
  'updateCustomer',
  'updateUser',
  'createAgent',
  'updateAgent',
  'createCard',
  'createIntent',
  'evaluateSpend',
  'updateRiskSettings',
  'createWebhook',
  'updateWebhook',
  'createApiKey',
  'simulateAuthorization',
  'simulateKyc',
  'advanceClock',
]);

describe('positive data acceptance', () => {
  const accepting = allOps.filter((op) => ACCEPTS_ANY_VALID_BODY.has(op.operationId));
  it('covers the operations it names', () => {
    expect(accepting.length).toBe(2 * ACCEPTS_ANY_VALID_BODY.size - 4);
  });
  // An organization of its own: accepted bodies change state (a clock moved years ahead, cards frozen).
  const accepters = new Map<Variant, Org>();
  beforeAll(async () => {
    for (const variant of VARIANTS) accepters.set(variant, await newOrg(variant));
  });
  it.each(accepting.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, ids } = accepters.get(op.variant) as Org;
    const bodies = validBodies(op, specs[op.variant], ids, 5, 1).map((body) => {
      // Spend evaluation names the card; a generated customer or agent would not be the card's.
      if (op.operationId === 'evaluateSpend') {
        const { customerId: _c, userId: _u, agentId: _a, ...rest } = body;
        return rest;
      }
      if (op.operationId === 'simulateAuthorization' && 'token' in body) {
        // A token the organization issued: a generated number would be unknown (404); any body is then answered
        // with a transaction, approved or declined with the token's reason.
        return { ...body, token: { number: ids.get('tokenNumber'), cryptogram: ids.get('tokenCryptogram') } };
      }
      if (op.operationId === 'simulateKyc') {
        // One owner field, as the variant names it (the customer variant also accepts `userId`).
        const { userId: _u, customerId: _c, ...rest } = body;
        return op.variant === 'user' ? { ...rest, userId: ids.get('userId') } : { ...rest, customerId: ids.get('customerId') };
      }
      return body;
    });
    const refused: Array<{ body: unknown; status: number; answer: unknown }> = [];
    for (const body of bodies) {
      const response = await send(buildRequest(op, BASE, ids, authHeaders(op.variant, apiKey), body));
      if (response.status < 200 || response.status >= 300)
        refused.push({ body, status: response.status, answer: await response.json() });
    }
    expect(refused).toEqual([]);
  });
});

describe('missing required header (Authorization for customers, Api-Key for users)', () => {
  it.each(allOps.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { apiKey, ids } = org(op.variant);
    const [body] = validBodies(op, specs[op.variant], ids, 1);
    const other = op.variant === 'customer' ? { 'Api-Key': apiKey } : { Authorization: `Bearer ${apiKey}` };
    for (const headers of [{}, { ...authHeaders(op.variant, apiKey), ...other }]) {
      const response = await send(buildRequest(op, BASE, ids, headers, body));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'unauthorized' });
    }
  });
});

describe('unsupported method', () => {
  const cases = VARIANTS.flatMap((variant) =>
    [...specs[variant].pathMethods].flatMap(([path, methods]) =>
      HTTP_METHODS.filter((m) => !methods.includes(m)).map(
        (method) => [`${variant} ${method.toUpperCase()} ${path}`, variant, path, method] as const,
      ),
    ),
  );
  it.each(cases)('%s', async (_name, variant, path, method) => {
    const { apiKey, ids } = org(variant);
    const concrete = path.replace(/\{([^}]+)\}/g, (_m, name: string) => ids.get(name) ?? `${name}_missing`);
    const response = await send(
      new Request(`${BASE}${concrete}`, { method: method.toUpperCase(), headers: authHeaders(variant, apiKey) }),
    );
    // RFC 9110: a 405 names the methods the path does support in `Allow` (HEAD comes with GET).
    const allow = (response.headers.get('Allow') ?? '')
      .split(',')
      .map((m) => m.trim().toLowerCase())
      .filter(Boolean);
    const documented: string[] = [...(specs[variant].pathMethods.get(path) ?? [])];
    if (documented.includes('get')) documented.push('head');
    expect({ status: response.status, allow: allow.sort() }).toEqual({ status: 405, allow: documented.sort() });
  });
});

describe('ignored auth (missing, malformed, unknown-format or revoked key)', () => {
  let revoked: Partial<Record<Variant, string>> = {};
  beforeAll(async () => {
    revoked = {};
    for (const variant of VARIANTS) {
      const { vc } = org(variant);
      const key = await vc.client.apiKeys.create({ name: 'to revoke' });
      await vc.client.apiKeys.revoke(key.id);
      revoked[variant] = key.key;
    }
  });
  it.each(allOps.map((op) => [label(op), op] as const))('%s', async (_name, op) => {
    const { ids } = org(op.variant);
    const [body] = validBodies(op, specs[op.variant], ids, 1);
    const keys = ['', 'not-a-key', 'sk_test_short', 'sk_prod_abcdefghijkl', revoked[op.variant] as string];
    for (const key of keys) {
      const headers: Record<string, string> =
        op.variant === 'customer' ? { Authorization: key === '' ? 'Bearer' : `Bearer ${key}` } : { 'Api-Key': key };
      const response = await send(buildRequest(op, BASE, ids, headers, body));
      expect({ key, status: response.status }).toEqual({ key, status: 401 });
    }
  });
});

describe('use after free', () => {
  for (const variant of VARIANTS) {
    it(`${variant}: a deleted owner is 404 to read, update, balances and withdrawals`, async () => {
      const { ctx } = org(variant);
      const people = owners(ctx.vc);
      const owner = await createOwner(ctx, `free-${variant}@example.com`);
      await people.delete(owner);
      const statuses = await Promise.all([
        statusOf(people.retrieve(owner)),
        statusOf(people.update(owner, { phone: '+1' })),
        statusOf(people.balances(owner)),
        statusOf(people.delete(owner)),
      ]);
      expect(statuses).toEqual([404, 404, 404, 404]);
    });
    it(`${variant}: a deleted agent is 404 to read, update, suspend and delete`, async () => {
      const { ctx } = org(variant);
      const agent = await createAgentFor(ctx.vc, ctx.ids.get('owner') as string, { name: 'ephemeral' });
      await ctx.vc.client.agents.delete(agent.id);
      const agents = ctx.vc.client.agents;
      const statuses = await Promise.all([
        statusOf(agents.retrieve(agent.id)),
        statusOf(agents.update(agent.id, { name: 'x' })),
        statusOf(agents.suspend(agent.id)),
        statusOf(agents.delete(agent.id)),
      ]);
      expect(statuses).toEqual([404, 404, 404, 404]);
    });
    it(`${variant}: a deleted webhook is 404 to read, update, rotate and delete`, async () => {
      const { ctx } = org(variant);
      const webhooks = ctx.vc.client.webhooks;
      const hook = await webhooks.create({ url: 'https://hooks.example.com/free', events: ['card.frozen'] });
      await webhooks.delete(hook.id);
      const statuses = await Promise.all([
        statusOf(webhooks.retrieve(hook.id)),
        statusOf(webhooks.update(hook.id, { description: 'x' })),
        statusOf(webhooks.rotateSecret(hook.id)),
        statusOf(webhooks.delete(hook.id)),
      ]);
      expect(statuses).toEqual([404, 404, 404, 404]);
    });
  }
});

describe('resource availability (a created object is readable at once)', () => {
  for (const variant of VARIANTS) {
    it(`${variant}: owner, agent, card, webhook and API key`, async () => {
      const { ctx } = org(variant);
      const client = ctx.vc.client;
      const owner = await createOwner(ctx, `avail-${variant}@example.com`);
      expect((await owners(ctx.vc).retrieve(owner)).id).toBe(owner);
      const agent = await createAgentFor(ctx.vc, owner, { name: 'fresh' });
      expect(await client.agents.retrieve(agent.id)).toEqual(agent);
      const previousOwner = ctx.ids.get('owner');
      ctx.ids.set('owner', owner);
      const card = await issueCard(ctx, { agentId: agent.id });
      if (previousOwner) ctx.ids.set('owner', previousOwner);
      expect((await client.cards.retrieve(card)).id).toBe(card);
      const hook = await client.webhooks.create({ url: 'https://hooks.example.com/avail', events: ['card.created'] });
      const { secret: _secret, ...withoutSecret } = hook;
      expect(await client.webhooks.retrieve(hook.id)).toEqual(withoutSecret);
      const key = await client.apiKeys.create({ name: 'avail' });
      expect((await client.apiKeys.list({ limit: 100 })).data.map((k) => k.id)).toContain(key.id);
    });
    it(`${variant}: intent, transaction and withdrawal`, async () => {
      const { ctx, ids } = org(variant);
      const client = ctx.vc.client;
      const card = ids.get('cardId') as string;
      const intent = await client.intents.create({ cardId: card, summary: 'avail', expectedAmount: 500, ttlMinutes: 60 });
      expect(await client.intents.retrieve(intent.id)).toEqual(intent);
      const txn = await client.simulate.authorize({ cardId: card, amount: 100, currency: 'usd', merchant: { name: 'Avail' } });
      expect(await client.transactions.retrieve(txn.id)).toEqual(txn);
      const withdrawal = await client.withdrawals.create(ids.get('customerId') as string, {
        amount: 10,
        chainId: 8453,
        recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      });
      expect(await client.withdrawals.retrieve(withdrawal.id)).toEqual(withdrawal);
    });
  }
});

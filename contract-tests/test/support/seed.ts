import {
  ClockTracker,
  clientFor,
  createAgentFor,
  newTestKey,
  type ScenarioContext,
  withOwner,
} from '../../src/scenario/context.js';
import { authorize, createOwner, issueCard } from '../../src/scenario/variant-ops.js';
import type { Variant } from '../../src/spec.js';
import type { Harness } from './harness.js';

/** Path parameter name -> an id that exists in the seeded organization. */
export type SeededIds = Map<string, string>;

/** Seeded objects that no list endpoint returns, for the state snapshot to read one by one. */
export function unlistedObjects(ids: SeededIds): string[] {
  const withdrawal = ids.get('withdrawalId');
  return withdrawal === undefined ? [] : [`/withdrawals/${withdrawal}`];
}

/**
 * Creates one object of every kind in the organization, so that requests with a bad body or query reach the
 * validation of a real object's operation rather than stopping at a 404. A kind the mock cannot create yet is left
 * out (its operations then see only unknown ids); `failures` says which and why.
 */
export async function seedOrganization(ctx: ScenarioContext): Promise<{ ids: SeededIds; failures: string[] }> {
  const ids: SeededIds = new Map();
  const failures: string[] = [];
  const attempt = async (what: string, create: () => Promise<unknown>): Promise<void> => {
    try {
      await create();
    } catch (error) {
      failures.push(`${what}: ${(error as Error).message}`);
    }
  };
  const client = ctx.vc.client;
  await attempt('owner', async () => {
    const owner = await createOwner(ctx, `seed-${ctx.variant}@example.com`);
    ctx.ids.set('owner', owner);
    ids.set('customerId', owner).set('userId', owner);
  });
  await attempt('agent', async () => {
    const agent = await createAgentFor(ctx.vc, ids.get('customerId') ?? 'cus_missing', { name: 'Seed agent' });
    ids.set('agentId', agent.id);
  });
  await attempt('card', async () => ids.set('cardId', await issueCard(ctx, { agentId: ids.get('agentId') ?? 'agt_missing' })));
  await attempt('intent', async () => {
    const intent = await client.intents.create({
      cardId: ids.get('cardId') ?? 'card_missing',
      summary: 'seed',
      expectedAmount: 100,
      ttlMinutes: 600,
    });
    ids.set('intentId', intent.id);
  });
  await attempt('deposit', async () => {
    await withOwner(ctx.vc, ids.get('customerId') ?? 'cus_missing', {
      customer: (customerClient, field) => customerClient.simulate.deposit({ ...field, amount: 100_000, chainId: 8453 }),
      user: (userClient, field) => userClient.simulate.deposit({ ...field, amount: 100_000, chainId: 8453 }),
    });
  });
  await attempt('payment token', async () => {
    // An ACP allowance an hour from the organization's test-clock time (the fuzz's clock is frozen in the past).
    const now = Date.parse((await client.simulate.clock.retrieve()).now);
    const token = await client.paymentTokens.create(ids.get('cardId') ?? 'card_missing', {
      acp: {
        allowance: {
          reason: 'one_time',
          max_amount: 5_000,
          currency: 'usd',
          checkout_session_id: 'cs_seed',
          merchant_id: 'merch_seed',
          expires_at: new Date(now + 3_600_000).toISOString(),
        },
        merchantName: 'Seed shop',
      },
    });
    ids.set('paymentTokenId', token.id);
    // What a merchant presents for it, for the generated authorizations that name a token.
    ids.set('tokenNumber', token.networkToken?.number ?? '').set('tokenCryptogram', token.networkToken?.cryptogram ?? '');
  });
  await attempt('withdrawal', async () => {
    const withdrawal = await client.withdrawals.create(ids.get('customerId') ?? 'cus_missing', {
      amount: 100,
      chainId: 8453,
      recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    ids.set('withdrawalId', withdrawal.id);
  });
  await attempt('transaction', async () => {
    const txn = await authorize(ctx, ids.get('cardId') ?? 'card_missing', 100, 'Seed shop');
    ids.set('transactionId', txn.id);
  });
  await attempt('dispute', async () => {
    const other = await authorize(ctx, ids.get('cardId') ?? 'card_missing', 150, 'Seed shop two');
    await client.simulate.settle(other.id);
    const dispute = await client.simulate.dispute(other.id, { reason: 'fraudulent' });
    ids.set('disputeId', dispute.id);
  });
  await attempt('api key', async () => ids.set('keyId', (await client.apiKeys.create({ name: 'seed' })).id));
  await attempt('event', async () => {
    const [event] = (await client.events.list({ limit: 1 })).data;
    if (event) ids.set('eventId', event.id);
  });
  // Last, and disabled at once: no delivery is ever attempted, so nothing changes behind the suite's back.
  await attempt('webhook', async () => {
    const hook = await client.webhooks.create({ url: 'https://hooks.example.com/seed', events: ['*'] });
    await client.webhooks.update(hook.id, { status: 'disabled' });
    ids.set('webhookId', hook.id);
  });
  ids.set('deliveryId', 'whd_doesnotexist');
  return { ids, failures };
}

export interface SeededOrganization {
  apiKey: string;
  ctx: ScenarioContext;
  ids: SeededIds;
  failures: string[];
}

/** A fresh organization of `variant` (a new test key), reached through the harness's recorder and seeded. */
export async function newSeededOrganization(harness: Harness, variant: Variant): Promise<SeededOrganization> {
  const apiKey = newTestKey();
  const baseUrl = harness.baseUrl(variant);
  const fetch = harness.recorder.fetch;
  const vc = clientFor(variant, { apiKey, baseUrl, fetch });
  const ctx: ScenarioContext = {
    variant,
    vc,
    apiKey,
    baseUrl,
    fetch,
    receiver: harness.receiver,
    clock: new ClockTracker(),
    ids: new Map(),
  };
  const { ids, failures } = await seedOrganization(ctx);
  return { apiKey, ctx, ids, failures };
}

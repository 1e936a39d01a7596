import { expect } from 'vitest';
import { clientFor, createAgentFor, id, type ScenarioContext, withOwner } from './context.js';
import { mandateStep } from './mandate-steps.js';
import { paymentTokenStep } from './payment-token-steps.js';
import {
  authorize,
  cardStatus,
  CLOSED,
  createOwner,
  expectApiError,
  FROZEN,
  issueCard,
  owners,
  statusOf,
} from './variant-ops.js';

/** One named step of the story; steps run in order and share the context's ids. */
export interface Step {
  name: string;
  run(ctx: ScenarioContext): Promise<void>;
}

const RECIPIENT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const HOUR = 3600;
const DAY = 24 * HOUR;

/** Risk settings with every rule off except the ones given (the engine's anomaly events come from these). */
async function onlyRules(ctx: ScenarioContext, rules: Record<string, unknown>): Promise<void> {
  await ctx.vc.client.settings.risk.update({ preset: 'permissive' });
  if (Object.keys(rules).length > 0) await ctx.vc.client.settings.risk.update(rules);
}

/** Every event of the organization, walking all pages through the SDK's iterator. */
async function allEventIds(ctx: ScenarioContext): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of ctx.vc.client.events.list({ limit: 100 })) ids.push(event.id);
  return ids;
}

/** The `reason` of the `card.closed` event of each card, read back through the events API. */
async function closedReasons(ctx: ScenarioContext, cardIds: string[]): Promise<Record<string, string | undefined>> {
  const reasons: Record<string, string | undefined> = Object.fromEntries(cardIds.map((card) => [card, undefined]));
  for await (const event of ctx.vc.client.events.list({ type: 'card.closed', limit: 100 })) {
    const data = event.data as { cardId?: string; reason?: string };
    if (data.cardId !== undefined && data.cardId in reasons) reasons[data.cardId] = data.reason;
  }
  return reasons;
}

async function newAgent(ctx: ScenarioContext, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const agent = await createAgentFor(ctx.vc, id(ctx, 'owner'), { name, ...extra });
  return agent.id;
}

/**
 * The story every transport runs for each variant: it calls every operation of the variant through the SDK and
 * drives the mock into emitting every event type of the variant's envelope. Comments name the events each step is
 * there to produce.
 */
export const STEPS: Step[] = [
  {
    name: 'webhooks: subscribe to every event, manage a second subscription, rotate the secret',
    async run(ctx) {
      const webhooks = ctx.vc.client.webhooks;
      const hook = await webhooks.create({ url: ctx.receiver.url(ctx.variant), events: ['*'], description: 'contract tests' });
      ctx.receiver.addSecret(ctx.variant, hook.secret);
      ctx.ids.set('webhook', hook.id);
      const other = await webhooks.create({ url: ctx.receiver.url(ctx.variant), events: ['card.frozen'] });
      ctx.receiver.addSecret(ctx.variant, other.secret);
      const disabled = await webhooks.update(other.id, { status: 'disabled', description: 'paused' });
      expect(disabled.status).toBe('disabled');
      expect((await webhooks.retrieve(hook.id)).events).toEqual(['*']);
      const listed = await webhooks.list({ limit: 10 });
      expect(listed.data.map((w) => w.id)).toEqual(expect.arrayContaining([hook.id, other.id]));
      await webhooks.delete(other.id);
      await expectApiError(webhooks.retrieve(other.id), 404);
      const rotated = await webhooks.rotateSecret(hook.id);
      expect(rotated.secret).not.toBe(hook.secret);
      expect(rotated.standardWebhooks).toBe(true);
      ctx.receiver.addSecret(ctx.variant, rotated.secret);
      // A receiver that refuses headers it does not know: Cardrail-Signature alone.
      const plain = await webhooks.create({
        url: ctx.receiver.url(ctx.variant, false),
        events: ['user.updated'],
        standardWebhooks: false,
      });
      expect(plain.standardWebhooks).toBe(false);
      ctx.receiver.addSecret(ctx.variant, plain.secret);
      expect(await webhooks.update(plain.id, { description: 'no Standard Webhooks headers' })).toMatchObject({
        standardWebhooks: false,
      });
    },
  },
  {
    name: 'risk settings: read, then switch every rule off',
    async run(ctx) {
      const risk = await ctx.vc.client.settings.risk.retrieve();
      expect(risk.object).toBe('riskConfig');
      const updated = await ctx.vc.client.settings.risk.update({ preset: 'permissive' });
      expect(updated.preset).toBe('permissive');
    },
  },
  {
    name: 'owners: create, read, list, update; KYC approved, denied, needs information; delete (user.*, verification.*, deposit.address_ready)',
    async run(ctx) {
      const people = owners(ctx.vc);
      const owner = await createOwner(ctx, `owner-${ctx.variant}@example.com`);
      ctx.ids.set('owner', owner);
      // createCustomer: a new customer is `pending` while KYC runs; an approved application makes it `active`.
      expect(await people.retrieve(owner)).toMatchObject({ id: owner, status: 'pending', kycStatus: 'pending' });
      expect((await people.list({ limit: 5 })).data.map((o) => o.id)).toContain(owner);
      const updated = await people.update(owner, { phone: '+14155550199' });
      expect(updated.phone).toBe('+14155550199');
      await withOwner(ctx.vc, owner, {
        customer: (client, field) => client.simulate.kyc({ ...field, status: 'approved' }),
        user: (client, field) => client.simulate.kyc({ ...field, status: 'approved' }),
      });
      const approved = await people.retrieve(owner);
      expect(approved).toMatchObject({ kycStatus: 'approved', status: 'active' });
      expect(approved.depositAddress).not.toBeNull();

      const denied = await createOwner(ctx, `denied-${ctx.variant}@example.com`);
      // The customer variant also accepts `userId` for the owner of a simulation.
      await withOwner(ctx.vc, denied, {
        customer: (client) => client.simulate.kyc({ userId: denied, status: 'denied', reason: 'document expired' }),
        user: (client, field) => client.simulate.kyc({ ...field, status: 'denied', reason: 'document expired' }),
      });
      ctx.ids.set('deniedOwner', denied);
      const incomplete = await createOwner(ctx, `incomplete-${ctx.variant}@example.com`);
      await withOwner(ctx.vc, incomplete, {
        customer: (client, field) => client.simulate.kyc({ ...field, status: 'needsInformation', requiredFields: ['address'] }),
        user: (client, field) => client.simulate.kyc({ ...field, status: 'needsInformation', requiredFields: ['address'] }),
      });
      await people.delete(incomplete);
      expect(await statusOf(people.retrieve(incomplete)), 'the deleted owner').toBe(404);
    },
  },
  {
    name: 'money: deposit, balances, a confirmed and a failed withdrawal (deposit.received, user.balance.updated, withdrawal.*)',
    async run(ctx) {
      const owner = id(ctx, 'owner');
      await withOwner(ctx.vc, owner, {
        customer: (client, field) => client.simulate.deposit({ ...field, amount: 1_000_000, chainId: 8453 }),
        user: (client, field) => client.simulate.deposit({ ...field, amount: 1_000_000, chainId: 8453 }),
      });
      const balance = await owners(ctx.vc).balances(owner);
      expect(balance.available).toBe(1_000_000);
      const confirmed = await ctx.vc.client.withdrawals.create(owner, {
        amount: 1_000,
        chainId: 8453,
        recipientAddress: RECIPIENT,
      });
      expect((await ctx.vc.client.withdrawals.retrieve(confirmed.id)).status).toBe('pending');
      await ctx.vc.client.simulate.confirmWithdrawal(confirmed.id);
      const failed = await ctx.vc.client.withdrawals.create(owner, { amount: 2_000, chainId: 8453, recipientAddress: RECIPIENT });
      await ctx.vc.client.simulate.failWithdrawal(failed.id);
      await expectApiError(
        ctx.vc.client.withdrawals.create(id(ctx, 'deniedOwner'), { amount: 1, chainId: 8453, recipientAddress: RECIPIENT }),
        400,
        'insufficient_funds',
      );
    },
  },
  {
    name: 'agents and cards: create, read, list, update, suspend, activate, freeze, unfreeze (agent.*, card.created, card.frozen)',
    async run(ctx) {
      const agents = ctx.vc.client.agents;
      const agent = await newAgent(ctx, 'Procurement bot', { externalId: 'bot-1' });
      ctx.ids.set('agent', agent);
      expect((await agents.retrieve(agent)).status).toBe('active');
      const listed = await withOwner(ctx.vc, id(ctx, 'owner'), {
        customer: (client, field) => client.agents.list({ limit: 5, ...field }),
        user: (client, field) => client.agents.list({ limit: 5, ...field }),
      });
      expect(listed.data.map((a) => a.id)).toContain(agent);
      expect((await agents.update(agent, { name: 'Procurement bot v2' })).name).toBe('Procurement bot v2');

      const card = await issueCard(ctx, { agentId: agent });
      ctx.ids.set('card', card);
      expect((await ctx.vc.client.cards.list({ agentId: agent, limit: 5 })).data.map((c) => c.id)).toContain(card);
      expect((await ctx.vc.client.cards.policy(card)).cardId).toBe(card);

      expect((await ctx.vc.client.cards.freeze(card)).status).toBe(FROZEN);
      expect((await ctx.vc.client.cards.update(card, { status: 'active' })).status).toBe('active');
      expect((await agents.suspend(agent)).status).toBe('suspended');
      expect(await cardStatus(ctx.vc, card)).toBe(FROZEN);
      expect((await agents.activate(agent)).status).toBe('active');
      // activateAgent: "Its frozen cards stay frozen until unfrozen."
      expect(await cardStatus(ctx.vc, card)).toBe(FROZEN);
      expect((await ctx.vc.client.cards.update(card, { status: 'active' })).status).toBe('active');
    },
  },
  {
    name: 'spend: evaluate, intent, credentials, matched authorization, settle, reverse, dispute (intent.created, credential.accessed, spend.attested, intent.matched, transaction.*, dispute.*)',
    async run(ctx) {
      const card = id(ctx, 'card');
      const evaluation = await ctx.vc.client.spend.evaluate({
        cardId: card,
        amount: 2_000,
        currency: 'usd',
        merchant: { name: 'OpenAI', mcc: '5734' },
      });
      expect(evaluation.decision).toBe('approve');

      const intent = await ctx.vc.client.intents.create({
        cardId: card,
        summary: 'GPU credits',
        expectedAmount: 2_000,
        currency: 'usd',
        expectedMerchant: 'OpenAI',
      });
      expect((await ctx.vc.client.intents.retrieve(intent.id)).status).toBe('pending');
      expect((await ctx.vc.client.intents.list({ cardId: card, limit: 5 })).data.map((i) => i.id)).toContain(intent.id);
      const credentials = await ctx.vc.client.cards.credentials(card, {
        intentId: intent.id,
        summary: 'GPU credits',
        expectedAmount: 2_000,
      });
      expect(credentials.cardId).toBe(card);

      const matched = await authorize(ctx, card, 2_050, 'OpenAI');
      expect(matched.status).toBe('pending');
      expect((await ctx.vc.client.intents.retrieve(intent.id)).status).toBe('matched');
      expect((await ctx.vc.client.transactions.retrieve(matched.id)).id).toBe(matched.id);
      expect((await ctx.vc.client.transactions.list({ cardId: card, limit: 5 })).data.map((t) => t.id)).toContain(matched.id);
      await ctx.vc.client.simulate.settle(matched.id, { amount: 2_000 });
      await ctx.vc.client.simulate.reverse(matched.id, { amount: 2_000 });

      const disputed = await authorize(ctx, card, 1_200, 'Bookshop');
      await ctx.vc.client.simulate.settle(disputed.id);
      const dispute = await ctx.vc.client.simulate.dispute(disputed.id, { reason: 'fraudulent' });
      await ctx.vc.client.simulate.resolveDispute(dispute.id, { outcome: 'won' });
    },
  },
  {
    name: 'intents: mismatch, approval, rejection, 3-D Secure, a declined authorization (intent.mismatched, anomaly.intent_mismatch, intent.pending_approval, intent.approved, intent.rejected, challenge.requested, transaction.declined)',
    async run(ctx) {
      const card = id(ctx, 'card');
      await onlyRules(ctx, { intentMismatch: { enabled: true, action: 'alert' } });
      const intent = await ctx.vc.client.intents.create({
        cardId: card,
        summary: 'API credits',
        expectedAmount: 1_000,
        expectedMerchant: 'Anthropic',
      });
      await authorize(ctx, card, 9_000, 'Anthropic');
      expect((await ctx.vc.client.intents.retrieve(intent.id)).status).toBe('mismatched');

      const approver = await newAgent(ctx, 'Needs approval', { policy: { requireApproval: true } });
      const approvalCard = await issueCard(ctx, { agentId: approver });
      await expectApiError(ctx.vc.client.cards.credentials(approvalCard), 400, 'intent_required');
      const approved = await ctx.vc.client.intents.create({ cardId: approvalCard, summary: 'Laptop', expectedAmount: 5_000 });
      expect(approved.status).toBe('pending_approval');
      // requireApproval gates credentials: not while the intent waits, and at once after the approval.
      await expectApiError(ctx.vc.client.cards.credentials(approvalCard, { intentId: approved.id }), 400, 'approval_required');
      expect((await ctx.vc.client.intents.approve(approved.id)).status).toBe('pending');
      expect((await ctx.vc.client.cards.credentials(approvalCard, { intentId: approved.id })).cardId).toBe(approvalCard);
      const rejected = await ctx.vc.client.intents.create({ cardId: approvalCard, summary: 'Yacht', expectedAmount: 9_000 });
      expect((await ctx.vc.client.intents.reject(rejected.id, { reason: 'not in budget' })).status).toBe('rejected');

      await authorize(ctx, card, 700, 'Airline', { threeDS: true });
      await ctx.vc.client.cards.freeze(card);
      const declined = await authorize(ctx, card, 500, 'Coffee');
      expect(declined).toMatchObject({ status: 'declined', declinedReason: 'card_frozen' });
      await expectApiError(ctx.vc.client.cards.credentials(card), 400, 'card_not_active');
      await ctx.vc.client.cards.update(card, { status: 'active' });

      const careful = await issueCard(ctx, { agentId: await newAgent(ctx, 'Careful', { policy: { requireIntent: true } }) });
      await expectApiError(ctx.vc.client.cards.credentials(careful), 400, 'intent_required');
    },
  },
  {
    name: 'risk engine alerts: drift, unattested, duplicate, cooldown, velocity (card.merchant_drift, anomaly.*, spend.unattested)',
    async run(ctx) {
      await onlyRules(ctx, { merchantDrift: { enabled: true, action: 'alert' } });
      const drifter = await newAgent(ctx, 'Drifter', { policy: { onDrift: 'allow' } });
      const hinted = await issueCard(ctx, { agentId: drifter, merchantHint: 'AWS' });
      await authorize(ctx, hinted, 300, 'GCP');

      await onlyRules(ctx, {
        duplicateDetection: { enabled: true, windowMinutes: 10, action: 'alert' },
        velocityLimit: { enabled: true, maxPerHour: 2, maxPerDay: 50, action: 'alert' },
        unattestedSpend: { enabled: true, action: 'alert' },
        cooldownViolation: { enabled: true, action: 'alert' },
      });
      // Same merchant and amount twice inside the cooldown: unattested, duplicate and cooldown anomalies.
      const busy = await newAgent(ctx, 'Busy', { policy: { cooldownMinutes: 5 } });
      const card = await issueCard(ctx, { agentId: busy });
      await authorize(ctx, card, 100, 'Shop');
      await authorize(ctx, card, 100, 'Shop');
      // Three different spends within the hour on a card without cooldown: the third is over maxPerHour.
      const quick = await issueCard(ctx, { agentId: await newAgent(ctx, 'Quick') });
      for (const amount of [110, 120, 130]) await authorize(ctx, quick, amount, `Store ${amount}`);
      await onlyRules(ctx, {});
    },
  },
  {
    name: 'risk engine actions: auto-freeze, auto-suspend (card.auto_frozen, agent.auto_suspended)',
    async run(ctx) {
      await onlyRules(ctx, { duplicateDetection: { enabled: true, windowMinutes: 10, action: 'freeze_card' } });
      const freezer = await issueCard(ctx, { agentId: await newAgent(ctx, 'Freezer') });
      await authorize(ctx, freezer, 300, 'Twice');
      const second = await authorize(ctx, freezer, 300, 'Twice');
      expect(second).toMatchObject({ status: 'declined', declinedReason: 'fraud_suspected' });
      expect(await cardStatus(ctx.vc, freezer)).toBe(FROZEN);

      await onlyRules(ctx, { duplicateDetection: { enabled: true, windowMinutes: 10, action: 'suspend_agent' } });
      const suspendee = await newAgent(ctx, 'Suspendee');
      const card = await issueCard(ctx, { agentId: suspendee });
      await authorize(ctx, card, 400, 'Again');
      await authorize(ctx, card, 400, 'Again');
      expect((await ctx.vc.client.agents.retrieve(suspendee)).status).toBe('suspended');
      await onlyRules(ctx, {});
    },
  },
  {
    name: 'limits and closing: agent limit approaching and exceeded, single-use card, manual close (agent.limit_*, card.closed)',
    async run(ctx) {
      const limited = await newAgent(ctx, 'Limited', { limits: { amount: 10_000, currency: 'usd', interval: 'monthly' } });
      const card = await issueCard(ctx, { agentId: limited });
      await authorize(ctx, card, 8_500, 'Cloud');
      await authorize(ctx, card, 2_000, 'Cloud');

      const single = await issueCard(ctx, { agentId: id(ctx, 'agent'), single: true });
      await authorize(ctx, single, 900, 'Once');
      expect(await cardStatus(ctx.vc, single)).toBe(CLOSED);

      const closing = await issueCard(ctx, { agentId: id(ctx, 'agent') });
      expect((await ctx.vc.client.cards.close(closing)).status).toBe(CLOSED);
      await expectApiError(ctx.vc.client.cards.update(closing, { status: 'active' }), 400, 'invalid_state');
    },
  },
  {
    name: 'test clock: expiries and a spend spike a day later (intent.expired, card.expired, anomaly.spend_spike)',
    async run(ctx) {
      const card = id(ctx, 'card');
      await ctx.vc.client.intents.create({ cardId: card, summary: 'short-lived', expectedAmount: 300, ttlMinutes: 1 });
      const expiring = await issueCard(ctx, { agentId: id(ctx, 'agent'), expiring: true });
      // Two baseline days: the day-and-an-hour below lands one or two UTC days on (two from 23:00 UTC), and the
      // baseline (the whole UTC days before today) must hold the baseline spend either way.
      await onlyRules(ctx, { spendSpike: { enabled: true, multiplier: 2, windowMinutes: 60, baselineDays: 2, action: 'alert' } });
      const spiky = await issueCard(ctx, { agentId: await newAgent(ctx, 'Spiky') });
      await authorize(ctx, spiky, 100, 'Baseline');

      const before = await ctx.vc.client.simulate.clock.retrieve();
      await ctx.clock.advance(ctx.vc, DAY + HOUR);
      const after = await ctx.vc.client.simulate.clock.retrieve();
      expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual((DAY + HOUR) * 1000);
      expect(await cardStatus(ctx.vc, expiring)).toBe(CLOSED);
      await authorize(ctx, spiky, 5_000, 'Baseline');
      await onlyRules(ctx, {});
    },
  },
  paymentTokenStep,
  {
    name: 'deliveries: a receiver that was down gets the event on a manual retry',
    async run(ctx) {
      const webhook = id(ctx, 'webhook');
      // Let every earlier delivery land first, so the one failure hits the event made here.
      await ctx.receiver.waitForEvents(ctx.variant, await allEventIds(ctx));
      ctx.receiver.failNext(ctx.variant, 1);
      await owners(ctx.vc).update(id(ctx, 'owner'), { metadata: { retried: true } });
      const [latest] = (await ctx.vc.client.events.list({ limit: 1 })).data;
      if (!latest) throw new Error('no event after an update');
      await ctx.receiver.waitUntil(
        () => ctx.receiver.deliveries.some((d) => d.eventId === latest.id && !d.plain && d.answered === 503),
        10_000,
        () => `the first attempt of ${latest.id} never arrived`,
      );
      const delivery = (await ctx.vc.client.webhooks.deliveries.list(webhook, { limit: 100 })).data.find(
        (d) => d.eventId === latest.id,
      );
      if (!delivery) throw new Error(`no delivery of ${latest.id} listed`);
      await ctx.vc.client.webhooks.deliveries.retry(webhook, delivery.id);
      await ctx.receiver.waitForEvents(ctx.variant, [latest.id]);
      const received = ctx.receiver.deliveries.filter((d) => d.eventId === latest.id && !d.plain);
      expect(received.map((d) => d.answered)).toEqual(expect.arrayContaining([503, 200]));
      // Both attempts of the delivery carry its id as webhook-id, so a receiver can deduplicate on it.
      expect(new Set(received.map((d) => d.webhookId))).toEqual(new Set([delivery.id]));
      // The webhook without Standard Webhooks headers got the same event (user.updated) with Cardrail-Signature alone
      // (the receiver records a violation for any Standard Webhooks header on that endpoint).
      await ctx.receiver.waitUntil(
        () => ctx.receiver.deliveries.some((d) => d.eventId === latest.id && d.plain && d.verified),
        10_000,
        () => `${latest.id} never reached the webhook without Standard Webhooks headers`,
      );

      // Resend: the same event again, as a new delivery record with the first delivery's webhook-id (the same message).
      const sentBefore = ctx.receiver.deliveries.filter((d) => d.webhookId === delivery.id).length;
      const resent = await ctx.vc.client.webhooks.resend(webhook, latest.id);
      expect(resent).toMatchObject({ webhookId: webhook, eventId: latest.id, status: 'succeeded', messageId: delivery.id });
      expect(resent.id).not.toBe(delivery.id);
      expect(resent.attempts).toHaveLength(1);
      await ctx.receiver.waitUntil(
        () => ctx.receiver.deliveries.filter((d) => d.webhookId === delivery.id).length > sentBefore,
        10_000,
        () => `the resent delivery ${resent.id} never arrived with webhook-id ${delivery.id}`,
      );
      await expectApiError(ctx.vc.client.webhooks.resend(webhook, 'evt_doesNotExist0'), 404);
      await expectApiError(ctx.vc.client.webhooks.resend('wh_doesNotExist0', latest.id), 404);
    },
  },
  {
    name: 'events, API keys and live mode: read events, rotate a key, a live key of the same organization sees nothing of the test mode',
    async run(ctx) {
      const events = await ctx.vc.client.events.list({ limit: 3 });
      const [first] = events.data;
      if (!first) throw new Error('no events listed');
      expect((await ctx.vc.client.events.retrieve(first.id)).id).toBe(first.id);
      const typed = await ctx.vc.client.events.list({ type: 'card.created', limit: 100 });
      expect(typed.data.length).toBeGreaterThan(0);
      expect(new Set(typed.data.map((e) => e.type))).toEqual(new Set(['card.created']));

      const keys = ctx.vc.client.apiKeys;
      const idempotencyKey = `rotation-${ctx.variant}-${Date.now()}`;
      const created = await keys.create({ name: 'rotation' }, { idempotencyKey });
      const replay = await keys.create({ name: 'rotation' }, { idempotencyKey }).withResponse();
      expect(replay.data.id).toBe(created.id);
      expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true');
      await expectApiError(keys.create({ name: 'another body' }, { idempotencyKey }), 400, 'idempotency_key_reused');
      expect((await keys.list({ limit: 10 })).data.map((k) => k.id)).toContain(created.id);
      const second = clientFor(ctx.variant, { apiKey: created.key, baseUrl: ctx.baseUrl, fetch: ctx.fetch });
      expect((await second.client.agents.retrieve(id(ctx, 'agent'))).id).toBe(id(ctx, 'agent'));
      await keys.revoke(created.id);
      await expectApiError(second.client.agents.retrieve(id(ctx, 'agent')), 401);

      // The live mode of this same organization sees none of the test mode's objects, keys or idempotency keys.
      const liveKey = await keys.create({ name: 'production', mode: 'live' });
      expect(liveKey.mode).toBe('live');
      expect((await keys.list({ limit: 100 })).data.map((k) => k.id)).not.toContain(liveKey.id);
      const live = clientFor(ctx.variant, { apiKey: liveKey.key, baseUrl: ctx.baseUrl, fetch: ctx.fetch });
      await expectApiError(live.client.simulate.clock.retrieve(), 400, 'test_mode_only');
      await expectApiError(live.client.agents.retrieve(id(ctx, 'agent')), 404);
      expect((await live.client.agents.list({ limit: 100 })).data).toEqual([]);
      expect((await live.client.apiKeys.list({ limit: 100 })).data.map((k) => k.id)).toEqual([liveKey.id]);
      await expectApiError(live.client.apiKeys.revoke(created.id), 404);
      const liveReplay = await live.client.apiKeys.create({ name: 'another body' }, { idempotencyKey }).withResponse();
      expect(liveReplay.data.mode).toBe('live');
      expect(liveReplay.response.headers.get('Idempotent-Replayed')).toBeNull();
      if (live.variant === 'user' && ctx.vc.variant === 'user') {
        // The catalog envelope names the organization: the live mode's events carry the test mode's.
        const [testEvent] = (await ctx.vc.client.events.list({ limit: 1 })).data;
        expect(testEvent?.organizationId).toMatch(/^org_/);
        await live.client.users.create({ type: 'consumer', email: 'live@example.com' });
        const [liveEvent] = (await live.client.events.list({ type: 'user.created', limit: 1 })).data;
        expect(liveEvent?.organizationId).toBe(testEvent?.organizationId);
      }
    },
  },
  {
    name: 'deletion: an agent (card.closed agent_deleted) and an owner (user.deleted) are gone afterwards',
    async run(ctx) {
      const agent = id(ctx, 'agent');
      await ctx.vc.client.agents.delete(agent);
      await expectApiError(ctx.vc.client.agents.retrieve(agent), 404);
      expect(await cardStatus(ctx.vc, id(ctx, 'card'))).toBe(CLOSED);
      // Deleting an owner deletes its agents and closes their cards; the owner itself is 404 afterwards.
      const owner = id(ctx, 'deniedOwner');
      const ownersAgent = await createAgentFor(ctx.vc, owner, { name: 'Orphan' });
      const previousOwner = ctx.ids.get('owner');
      ctx.ids.set('owner', owner);
      const ownersCard = await issueCard(ctx, { agentId: ownersAgent.id });
      if (previousOwner) ctx.ids.set('owner', previousOwner);
      await owners(ctx.vc).delete(owner);
      expect(await statusOf(ctx.vc.client.agents.retrieve(ownersAgent.id)), "the deleted owner's agent").toBe(404);
      expect(await cardStatus(ctx.vc, ownersCard), "the deleted owner's card").toBe(CLOSED);
      expect(await statusOf(owners(ctx.vc).retrieve(owner)), 'the deleted owner').toBe(404);
      // Both cards closed because their agent was deleted: the spec names the reason `agent_deleted` for each.
      expect(await closedReasons(ctx, [id(ctx, 'card'), ownersCard])).toEqual({
        [id(ctx, 'card')]: 'agent_deleted',
        [ownersCard]: 'agent_deleted',
      });
    },
  },
  {
    name: 'every event of the organization reaches the webhook, verified and valid',
    async run(ctx) {
      const ids = await allEventIds(ctx);
      expect(ids.length).toBeGreaterThan(0);
      await ctx.receiver.waitForEvents(ctx.variant, ids);
      const mine = ctx.receiver.deliveries.filter((d) => d.variant === ctx.variant);
      expect(mine.filter((d) => !d.verified || !d.valid)).toEqual([]);
      // The secret was rotated in the first step: for 24 hours both secrets sign, two v1 entries per header, in
      // each scheme.
      expect(mine.some((d) => (d.signature?.match(/v1=/g) ?? []).length >= 2)).toBe(true);
      expect(mine.some((d) => (d.standardSignature?.match(/v1,/g) ?? []).length >= 2)).toBe(true);
    },
  },
  mandateStep,
];

// Every call the dashboard makes, through @cardrail/sdk, and the one place that knows the two API variants apart
// (docs/variants.md): the views get the same shapes whichever variant the person signed in with.
import { customerEventTypes, userEventTypes } from '@cardrail/spec/events';
import {
  Cardrail,
  CardrailUsers,
  type CustomerApi,
  type CustomerEventType,
  type Mode,
  type PagePromise,
  type UserApi,
  type UserEventType,
} from '@cardrail/sdk';

type Schemas = CustomerApi.components['schemas'];
type UserSchemas = UserApi.components['schemas'];

export type Variant = 'customer' | 'user';

/** What the tab keeps in its session storage: the key and how to present it. */
export interface Session {
  apiKey: string;
  variant: Variant;
}

// The same objects with the same shapes in both variants.
export type Owner = Schemas['Customer'];
export type Balance = Schemas['Balance'];
export type Intent = Schemas['Intent'];
export type Clock = Schemas['Clock'];
export type PolicySummary = Schemas['CardPolicySummary'];
// A webhook's `events` are typed by each variant's names; the page shows them as they come.
export type Webhook = Omit<Schemas['Webhook'], 'events'> & { events: string[] };
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyWithSecret = Schemas['ApiKeyWithSecret'];
export type Dispute = Schemas['Dispute'];
/** What a dry run of a spend decides, the same in both variants. */
export type SpendEvaluation = Pick<Schemas['SpendEvaluation'], 'decision' | 'reasons' | 'flags'>;

// The objects whose owner field (or whole shape) differs: `ownerId` is `customerId` or `userId`.
export type Agent = Omit<Schemas['Agent'], 'customerId'> & { ownerId: string };
export type Transaction = Omit<Schemas['Transaction'], 'customerId'> & { ownerId: string | null };
export interface Card {
  id: string;
  ownerId: string | null;
  agentId: string | null;
  status: string;
  last4: string | null;
  usage: 'single' | 'multi';
  /** The user variant's free-text purpose; empty in the customer variant. */
  purpose: string;
  createdAt: string | null;
}
/** An event in either envelope, with `createdAt` as ISO 8601 (the catalog envelope sends epoch milliseconds). */
export interface DashboardEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The risk engine's findings on transactions, from the `anomaly.*` events (docs/risk.md). */
const ANOMALY_TYPES = [
  'anomaly.duplicate',
  'anomaly.velocity',
  'anomaly.spend_spike',
  'anomaly.unattested',
  'anomaly.intent_mismatch',
  'anomaly.cooldown',
  'anomaly.merchant_drift',
] as const;

/** How many items a view shows of a list: its newest. */
export const LIST_LIMIT = 100;

/** The key as the API shows it (`sk_test_...a1B2`): enough to tell keys apart, never the secret. */
function redactKey(apiKey: string): string {
  const prefix = apiKey.startsWith('sk_live_') ? 'sk_live_' : 'sk_test_';
  return `${prefix}...${apiKey.slice(-4)}`;
}

function toIso(time: string | number): string {
  return typeof time === 'number' ? new Date(time).toISOString() : time;
}

type AnyCard = Schemas['Card'] | UserSchemas['UserCard'];

function cardOf(card: AnyCard): Card {
  if ('userId' in card) {
    return {
      id: card.id,
      ownerId: card.userId,
      agentId: card.agentId,
      status: card.status,
      last4: card.last4,
      usage: card.type,
      purpose: card.purpose,
      createdAt: toIso(card.createdAt),
    };
  }
  return {
    id: card.id,
    ownerId: card.customerId,
    agentId: card.agentId,
    status: card.status,
    last4: card.last4,
    usage: card.usage,
    purpose: '',
    createdAt: card.createdAt,
  };
}

/** An object with its owner under the name the views use: the customer variant's `customerId`, the user variant's `userId`. */
function withOwner<T extends { customerId: Owned } | { userId: Owned }, Owned extends string | null>(
  item: T,
): Omit<T, 'customerId' | 'userId'> & { ownerId: Owned } {
  const { customerId, userId, ...rest } = item as T & { customerId?: Owned; userId?: Owned };
  return { ...rest, ownerId: ('userId' in item ? userId : customerId) as Owned };
}

function eventOf(event: { id: string; type: string; createdAt: string | number; data: object }): DashboardEvent {
  return { id: event.id, type: event.type, createdAt: toIso(event.createdAt), data: event.data as Record<string, unknown> };
}

async function firstItems<T>(page: PagePromise<T>, limit = LIST_LIMIT): Promise<T[]> {
  return page.toArray({ limit });
}

export class DashboardApi {
  readonly variant: Variant;
  readonly mode: Mode;
  /** What the variant calls an account holder. */
  readonly ownerNoun: 'customer' | 'user';
  /** The signed-in key as the API shows keys (`sk_test_...a1B2`). */
  readonly signedInAs: string;
  /** The event types of the variant, as its `GET /events` names them. */
  readonly eventTypes: readonly string[];
  readonly #client: Cardrail | CardrailUsers;

  constructor(session: Session, baseUrl = `${globalThis.location?.origin ?? ''}/v1`) {
    // The SDK never logs a key (it redacts them), but the page logs nothing at all: errors are shown where they happen.
    const options = { apiKey: session.apiKey, baseUrl, logLevel: 'off' as const, maxRetries: 1, timeoutMs: 30_000 };
    this.#client = session.variant === 'user' ? new CardrailUsers(options) : new Cardrail(options);
    this.variant = session.variant;
    this.mode = this.#client.mode;
    this.ownerNoun = session.variant === 'user' ? 'user' : 'customer';
    this.signedInAs = redactKey(session.apiKey);
    this.eventTypes = session.variant === 'user' ? userEventTypes : customerEventTypes;
  }

  /** A cheap call that every valid key may make, to tell a refused key at sign-in. */
  async verify(): Promise<void> {
    await this.#client.apiKeys.list({ limit: 1 });
  }

  // Owners (customers or users) and balances.
  owners(): Promise<Owner[]> {
    const client = this.#client;
    return client instanceof CardrailUsers
      ? firstItems(client.users.list({ limit: LIST_LIMIT }))
      : firstItems(client.customers.list({ limit: LIST_LIMIT }));
  }

  balance(ownerId: string): Promise<Balance> {
    const client = this.#client;
    return client instanceof CardrailUsers ? client.users.balances(ownerId) : client.customers.balances(ownerId);
  }

  // Agents.
  async agents(): Promise<Agent[]> {
    const client = this.#client;
    const agents =
      client instanceof CardrailUsers
        ? await firstItems(client.agents.list({ limit: LIST_LIMIT }))
        : await firstItems(client.agents.list({ limit: LIST_LIMIT }));
    return agents.map((agent) => withOwner(agent));
  }

  async suspendAgent(agentId: string): Promise<void> {
    await this.#client.agents.suspend(agentId);
  }

  async activateAgent(agentId: string): Promise<void> {
    await this.#client.agents.activate(agentId);
  }

  // Cards.
  async cards(): Promise<Card[]> {
    const client = this.#client;
    const cards: AnyCard[] =
      client instanceof CardrailUsers
        ? await firstItems(client.cards.list({ limit: LIST_LIMIT }))
        : await firstItems(client.cards.list({ limit: LIST_LIMIT }));
    return cards.map(cardOf);
  }

  async freezeCard(cardId: string): Promise<void> {
    await this.#client.cards.freeze(cardId);
  }

  async unfreezeCard(cardId: string): Promise<void> {
    await this.#client.cards.update(cardId, { status: 'active' });
  }

  async closeCard(cardId: string): Promise<void> {
    await this.#client.cards.close(cardId);
  }

  policy(cardId: string): Promise<PolicySummary> {
    return this.#client.cards.policy(cardId);
  }

  // Intents.
  intents(status?: Intent['status']): Promise<Intent[]> {
    return firstItems(this.#client.intents.list({ limit: LIST_LIMIT, ...(status ? { status } : {}) }));
  }

  intent(intentId: string): Promise<Intent> {
    return this.#client.intents.retrieve(intentId);
  }

  async agent(agentId: string): Promise<Agent> {
    const client = this.#client;
    return withOwner(
      client instanceof CardrailUsers ? await client.agents.retrieve(agentId) : await client.agents.retrieve(agentId),
    );
  }

  owner(ownerId: string): Promise<Owner> {
    const client = this.#client;
    return client instanceof CardrailUsers ? client.users.retrieve(ownerId) : client.customers.retrieve(ownerId);
  }

  async card(cardId: string): Promise<Card> {
    const client = this.#client;
    return cardOf(client instanceof CardrailUsers ? await client.cards.retrieve(cardId) : await client.cards.retrieve(cardId));
  }

  /** What an authorization of the intent's amount at its merchant would get now (a dry run: nothing changes). */
  async evaluateIntent(intent: Intent): Promise<SpendEvaluation> {
    const { decision, reasons, flags } = await this.#client.spend.evaluate({
      cardId: intent.cardId,
      amount: intent.expectedAmount,
      currency: intent.currency,
      ...(intent.agentId ? { agentId: intent.agentId } : {}),
      ...(intent.expectedMerchant ? { merchant: { name: intent.expectedMerchant } } : {}),
    });
    return { decision, reasons, flags };
  }

  /** The agent's newest transactions. */
  async agentTransactions(agentId: string, limit: number): Promise<Transaction[]> {
    const client = this.#client;
    const page =
      client instanceof CardrailUsers
        ? await client.transactions.list({ agentId, limit })
        : await client.transactions.list({ agentId, limit });
    return page.data.map((transaction) => withOwner(transaction));
  }

  async approveIntent(intentId: string): Promise<void> {
    await this.#client.intents.approve(intentId, { decidedBy: await this.#decider() });
  }

  async rejectIntent(intentId: string, reason: string): Promise<void> {
    await this.#client.intents.reject(intentId, { ...(reason ? { reason } : {}), decidedBy: await this.#decider() });
  }

  #signedInKeyName: Promise<string | null> | undefined;

  /**
   * Who decides on this page, as the intent records it: the person who signed in, named by their key's label (the
   * key's redacted form when it has none, or when the key list cannot be read), on the dashboard.
   */
  async #decider(): Promise<{ name: string; via: string }> {
    this.#signedInKeyName ??= firstItems(this.#client.apiKeys.list({ limit: LIST_LIMIT })).then(
      (keys) => {
        const mine = keys.filter((key) => key.redactedKey === this.signedInAs && key.status === 'active');
        return mine.length === 1 ? (mine[0]?.name ?? null) : null;
      },
      () => null,
    );
    const label = await this.#signedInKeyName;
    return { name: label ?? `the holder of key ${this.signedInAs}`, via: 'the dashboard' };
  }

  // Transactions and the simulated card network.
  async transactions(): Promise<Transaction[]> {
    const client = this.#client;
    const transactions =
      client instanceof CardrailUsers
        ? await firstItems(client.transactions.list({ limit: LIST_LIMIT }))
        : await firstItems(client.transactions.list({ limit: LIST_LIMIT }));
    return transactions.map((transaction) => withOwner(transaction));
  }

  /** Risk findings by transaction id: the anomaly types (without `anomaly.`) of its newest anomaly events. */
  async riskFlags(): Promise<Map<string, string[]>> {
    const flags = new Map<string, string[]>();
    const lists = await Promise.all(ANOMALY_TYPES.map((type) => this.events(type)));
    for (const event of lists.flat()) {
      const transactionId = event.data.transactionId;
      if (typeof transactionId !== 'string') continue;
      const flag = event.type.slice('anomaly.'.length);
      const known = flags.get(transactionId) ?? [];
      if (!known.includes(flag)) flags.set(transactionId, [...known, flag]);
    }
    return flags;
  }

  async authorize(input: { cardId: string; amount: number; merchant: { name: string; mcc?: string }; threeDS: boolean }) {
    const transaction = await this.#client.simulate.authorize(input);
    return withOwner(transaction);
  }

  async settle(transactionId: string): Promise<void> {
    await this.#client.simulate.settle(transactionId, {});
  }

  async reverse(transactionId: string): Promise<void> {
    await this.#client.simulate.reverse(transactionId, {});
  }

  dispute(transactionId: string, reason: string): Promise<Dispute> {
    return this.#client.simulate.dispute(transactionId, reason ? { reason } : {});
  }

  // Events.
  /** The newest events, of one type (as `eventTypes` names it) or of any. */
  async events(type?: string, limit = LIST_LIMIT): Promise<DashboardEvent[]> {
    const pageSize = Math.min(limit, LIST_LIMIT);
    const client = this.#client;
    const events =
      client instanceof CardrailUsers
        ? await firstItems(client.events.list({ limit: pageSize, ...(type ? { type: type as UserEventType } : {}) }), limit)
        : await firstItems(client.events.list({ limit: pageSize, ...(type ? { type: type as CustomerEventType } : {}) }), limit);
    return events.map(eventOf);
  }

  /**
   * The events recorded after `sinceId`, newest first, walking further pages only until `sinceId` is reached (at most
   * `max` events). `null`: every event, up to `max`.
   */
  async eventsSince(sinceId: string | null, max = 500): Promise<DashboardEvent[]> {
    const fresh: DashboardEvent[] = [];
    const client = this.#client;
    const first =
      client instanceof CardrailUsers ? client.events.list({ limit: LIST_LIMIT }) : client.events.list({ limit: LIST_LIMIT });
    for await (const page of (await first).iterPages()) {
      for (const event of page.data) {
        if (event.id === sinceId) return fresh;
        fresh.push(eventOf(event));
      }
      if (fresh.length >= max) return fresh;
    }
    return fresh;
  }

  // Webhooks.
  async webhooks(): Promise<Webhook[]> {
    const client = this.#client;
    return client instanceof CardrailUsers
      ? await firstItems(client.webhooks.list({ limit: LIST_LIMIT }))
      : await firstItems(client.webhooks.list({ limit: LIST_LIMIT }));
  }

  /** `events` as a person typed them: the API checks each against the variant's names and answers 400 for another. */
  createWebhook(input: { url: string; events: string[]; description?: string }): Promise<WebhookWithSecret> {
    const client = this.#client;
    return client instanceof CardrailUsers
      ? client.webhooks.create({ ...input, events: input.events as UserEventType[] })
      : client.webhooks.create({ ...input, events: input.events as CustomerEventType[] });
  }

  async setWebhookStatus(webhookId: string, status: Webhook['status']): Promise<void> {
    await this.#client.webhooks.update(webhookId, { status });
  }

  async deleteWebhook(webhookId: string): Promise<void> {
    await this.#client.webhooks.delete(webhookId);
  }

  rotateWebhookSecret(webhookId: string): Promise<WebhookWithSecret> {
    return this.#client.webhooks.rotateSecret(webhookId);
  }

  deliveries(webhookId: string): Promise<WebhookDelivery[]> {
    return firstItems(this.#client.webhooks.deliveries.list(webhookId, { limit: LIST_LIMIT }));
  }

  async retryDelivery(webhookId: string, deliveryId: string): Promise<void> {
    await this.#client.webhooks.deliveries.retry(webhookId, deliveryId);
  }

  // The test clock.
  clock(): Promise<Clock> {
    return this.#client.simulate.clock.retrieve();
  }

  advanceClock(seconds: number): Promise<Clock> {
    return this.#client.simulate.clock.advance({ seconds });
  }

  // API keys.
  apiKeys(): Promise<ApiKey[]> {
    return firstItems(this.#client.apiKeys.list({ limit: LIST_LIMIT }));
  }

  createApiKey(input: { name?: string; mode: Mode }): Promise<ApiKeyWithSecret> {
    return this.#client.apiKeys.create(input);
  }

  async revokeApiKey(keyId: string): Promise<void> {
    await this.#client.apiKeys.revoke(keyId);
  }

  /**
   * Example data for a first look (test mode): a funded account holder, an agent, a card whose intents need
   * approval, one intent waiting for it and one approved authorization.
   */
  async createExample(): Promise<void> {
    const client = this.#client;
    const email = `example-${Date.now().toString(36)}@example.com`;
    let cardId: string;
    if (client instanceof CardrailUsers) {
      const user = await client.users.create({ email, name: { first: 'Ada', last: 'Lovelace' } });
      await client.simulate.deposit({ userId: user.id, amount: 500_000 });
      const agent = await client.agents.create({ userId: user.id, name: 'Travel booker' });
      cardId = (await client.cards.create({ agentId: agent.id, purpose: 'Flights and hotels', requireApproval: true })).id;
    } else {
      const customer = await client.customers.create({ email, name: { first: 'Ada', last: 'Lovelace' } });
      await client.simulate.deposit({ customerId: customer.id, amount: 500_000 });
      const agent = await client.agents.create({ customerId: customer.id, name: 'Travel booker' });
      cardId = (await client.cards.create({ customerId: customer.id, agentId: agent.id, policy: { requireApproval: true } })).id;
    }
    await client.simulate.authorize({ cardId, amount: 1_250, merchant: { name: 'Coffee Roasters', mcc: '5814' } });
    await client.intents.create({ cardId, summary: 'Flight to Lisbon', expectedAmount: 32_000, expectedMerchant: 'TAP Air' });
  }
}

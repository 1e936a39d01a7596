import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { createMockServer, type MockServer, type MockServerOptions } from '../../../src/index.js';

export type VariantName = 'customer' | 'user';

/** A Monday at noon UTC: day, week and month boundaries are far unless a scenario crosses them. */
export const SCENARIO_START = '2026-11-23T12:00:00.000Z';

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface EnvelopeEvent {
  id: string;
  type: string;
  createdAt: string | number;
  organizationId?: string;
  data: Record<string, unknown>;
}

/**
 * One organization driven through `createMockServer().handle(new Request(...))`, with answers checked against the
 * spec (validateResponses). Events are read back through `GET /events` in both variants' envelopes.
 */
export class Scenario {
  readonly mock: MockServer;
  readonly key = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly #seen: Record<VariantName, Set<string>> = { customer: new Set(), user: new Set() };

  /** `sharing`: another organization (a new key) on that scenario's mock, for what one must never see of another. */
  constructor(options: Pick<MockServerOptions, 'fetch' | 'approvalPage' | 'frozenClock'> & { sharing?: Scenario } = {}) {
    const { sharing, ...rest } = options;
    this.mock =
      sharing?.mock ??
      createMockServer({ frozenClock: SCENARIO_START, validateResponses: true, seed: 'engine-scenarios', ...rest });
  }

  async call(method: string, path: string, body?: unknown, variant: VariantName = 'customer'): Promise<Answer> {
    const headers: Record<string, string> =
      variant === 'user' ? { 'Api-Key': this.key } : { Authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.mock.handle(
      new Request(`http://127.0.0.1:4010/v1${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Calls and expects a 2xx, returning the body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async ok(method: string, path: string, body?: unknown, variant: VariantName = 'customer'): Promise<any> {
    const answer = await this.call(method, path, body, variant);
    if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** Events not returned before through this variant, oldest first, as `GET /events` renders them. */
  async newEvents(variant: VariantName): Promise<EnvelopeEvent[]> {
    const fresh: EnvelopeEvent[] = [];
    let cursor: string | null = null;
    for (;;) {
      const query: string = cursor ? `?limit=100&cursor=${cursor}` : '?limit=100';
      const page = await this.ok('GET', `/events${query}`, undefined, variant);
      let reachedSeen = false;
      for (const event of page.data as EnvelopeEvent[]) {
        if (this.#seen[variant].has(event.id)) {
          reachedSeen = true;
          break;
        }
        fresh.push(event);
      }
      if (reachedSeen || !page.hasMore) break;
      cursor = page.nextCursor;
    }
    for (const event of fresh) this.#seen[variant].add(event.id);
    return fresh.reverse();
  }

  /** Marks every event so far as seen in both variants. */
  async settle(): Promise<void> {
    await this.newEvents('customer');
    await this.newEvents('user');
  }

  /**
   * Asserts the events since the last check, in order, in both envelopes: `catalog` are the user-variant types;
   * the customer variant shows the general names (transaction.created, transaction.settled) plus intent.created.
   * Returns the user-variant events.
   */
  async expectEvents(catalog: string[], options: { generalExtra?: Record<number, string> } = {}): Promise<EnvelopeEvent[]> {
    const user = await this.newEvents('user');
    const customer = await this.newEvents('customer');
    expect(user.map((event) => event.type)).toEqual(catalog);
    const general = catalog.map((type) => GENERAL[type] ?? type);
    for (const [index, type] of Object.entries(options.generalExtra ?? {}).sort((a, b) => Number(b[0]) - Number(a[0]))) {
      general.splice(Number(index), 0, type);
    }
    expect(customer.map((event) => event.type)).toEqual(general);
    for (const event of user) {
      expect(typeof event.createdAt).toBe('number');
      expect(event.organizationId).toMatch(/^org_/);
    }
    const byId = new Map(customer.map((event) => [event.id, event]));
    for (const event of user) {
      const twin = byId.get(event.id);
      expect(twin, `${event.type} is in both variants with the same id`).toBeDefined();
      expect(typeof twin?.createdAt).toBe('string');
    }
    return user;
  }

  async advance(seconds: number): Promise<void> {
    await this.ok('POST', '/simulate/clock/advance', { seconds });
  }

  /** A customer with `balance` cents, an agent and a customer-variant card. */
  async setup(
    options: {
      balance?: number;
      card?: Record<string, unknown>;
      agent?: Record<string, unknown>;
      customer?: Record<string, unknown>;
    } = {},
  ) {
    const customer = await this.ok('POST', '/customers', { email: 'ada@example.com', ...options.customer });
    const agent = await this.ok('POST', '/agents', { customerId: customer.id, name: 'Procurement bot', ...options.agent });
    const card = await this.ok('POST', '/cards', { customerId: customer.id, agentId: agent.id, ...options.card });
    if (options.balance !== 0)
      await this.ok('POST', '/simulate/deposits', { customerId: customer.id, amount: options.balance ?? 1_000_000 });
    await this.settle();
    return { customer, agent, card };
  }

  authorize(
    cardId: string,
    amount: number,
    merchant: { name: string; mcc?: string } = { name: 'OpenAI', mcc: '5734' },
    extra: Record<string, unknown> = {},
  ) {
    return this.ok('POST', '/simulate/authorize', { cardId, amount, currency: 'usd', merchant, ...extra });
  }
}

const GENERAL: Record<string, string> = {
  'transaction.authorized': 'transaction.created',
  'transaction.completed': 'transaction.settled',
};

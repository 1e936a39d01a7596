import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { documents } from '@cardrail/spec/documents';
import { BaseClock } from '../../../src/core/clock.js';
import type { AnyStoredEvent as MockEvent } from '../../../src/core/event-types.js';
import { IdFactory } from '../../../src/core/ids.js';
import { seededRandom } from '../../../src/core/seeded-random.js';
import { Tenant, type EventListener, type PolicyChangeListener } from '../../../src/core/tenant.js';
import { engineReactions } from '../../../src/engine/reactions.js';
import { codecs } from '../../../src/variants/index.js';
import { eventNaming } from '../../../src/core/event-naming.js';
import { engineState } from '../../../src/engine/engine-state.js';
import { simulateDeposit } from '../../../src/engine/money/deposits.js';
import { applyRiskUpdate, type RiskConfigUpdate } from '../../../src/engine/risk/risk-config.js';
import { scheduleCardTtl } from '../../../src/engine/ttl.js';
import { agents, createAgent, type AgentRecord } from '../../../src/domain/agents.js';
import { cards, createCard, type CardInput, type CardRecord } from '../../../src/domain/cards.js';
import { createCustomer, customers, type CustomerRecord } from '../../../src/domain/customers.js';
import type { Policy, SpendingLimit } from '../../../src/domain/types.js';

/** 2026-11-23 was a Monday; noon keeps day, week and month boundaries away unless a test crosses them on purpose. */
export const START = Date.parse('2026-11-23T12:00:00.000Z');

type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(documents.user, 'user');
ajv.addSchema(documents.customer, 'customer');
const validators = new Map<string, ValidateFunction>();

/** `card.auto_frozen` -> `CardAutoFrozenEventData`, the naming rule of spec/README.md. */
export function eventDataSchemaName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}EventData`;
}

const renderEvent = (event: MockEvent, variant: 'customer' | 'user') => codecs[variant].renderEvent(event);

/**
 * Checks an event as each variant renders it against that variant's schema of its data (spec/common/events.yaml);
 * returns the errors, empty when valid. A variant that lacks the type (`intent.created` in the user variant) is
 * skipped; every event must be visible in at least one.
 */
export function eventDataErrors(event: MockEvent): string[] {
  const errors: string[] = [];
  let visible = 0;
  for (const variant of ['customer', 'user'] as const) {
    const rendered = renderEvent(event, variant);
    if (!rendered) continue;
    visible++;
    const name = eventDataSchemaName(rendered.type);
    const key = `${variant}:${name}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `${variant}#/components/schemas/${name}` });
      validators.set(key, validate);
    }
    const { data } = rendered.envelope as { data: unknown };
    if (!validate(data))
      errors.push(...(validate.errors ?? []).map((e) => `${variant} ${rendered.type} ${e.instancePath} ${e.message}`));
  }
  if (visible === 0) errors.push(`${event.type} is an event type of neither variant`);
  return errors;
}

export interface SetupOptions {
  balance?: number;
  customer?: { policy?: Policy };
  agent?: { policy?: Policy; limits?: SpendingLimit; status?: AgentRecord['status'] };
  card?: Partial<Omit<CardInput, 'customerId' | 'agentId'>> & { status?: CardRecord['status']; merchantLock?: string };
}

/**
 * A tenant with the platform's real customers, agents and cards (src/domain) read and changed by the engine directly, so
 * engine rules are tested without HTTP. Every event is recorded and checked against its schema in the spec.
 */
export class EngineWorld {
  readonly events: MockEvent[] = [];
  readonly tenant: Tenant;
  readonly invalidEvents: string[] = [];

  constructor() {
    const ids = new IdFactory(seededRandom('engine-world'));
    const listeners = new Set<EventListener>([
      (event) => {
        this.events.push(event);
        this.invalidEvents.push(...eventDataErrors(event));
      },
    ]);
    // The engine reacts to policy changes as it does in the server (its TTLs follow the merged policy).
    const onPolicyChanged = new Set<PolicyChangeListener>([engineReactions.onPolicyChanged]);
    this.tenant = new Tenant(
      'org_test',
      'test',
      ids,
      new BaseClock({ frozenAt: START }),
      0,
      { onEvent: listeners, onPolicyChanged },
      eventNaming,
    );
  }

  get state() {
    return engineState(this.tenant);
  }

  now(): number {
    return this.tenant.now();
  }

  /** Moves the test clock forward, running due work (TTL, intent expiry) at its own time. */
  async advance(ms: number): Promise<void> {
    await this.tenant.scheduler.advance(ms);
  }

  customer(id: string): CustomerRecord {
    return customers.of(this.tenant).get(id) as CustomerRecord;
  }

  agent(id: string): AgentRecord {
    return agents.of(this.tenant).get(id) as AgentRecord;
  }

  card(id: string): CardRecord {
    return cards.of(this.tenant).get(id) as CardRecord;
  }

  addCard(agent: AgentRecord, options: SetupOptions['card'] = {}): CardRecord {
    const { status, merchantLock, ...input } = options;
    const card = createCard(this.tenant, { customerId: agent.customerId, agentId: agent.id, ...input });
    scheduleCardTtl(this.tenant, card.id);
    cards.of(this.tenant).update(card.id, (record) => {
      if (status) record.status = status;
      if (merchantLock) record.merchantLock = merchantLock;
    });
    return card;
  }

  /** A customer with money, an agent and a card: the usual starting point. Events so far are cleared. */
  setup(options: SetupOptions = {}) {
    const customer = createCustomer(this.tenant, { email: 'ada@example.com', policy: options.customer?.policy });
    const { status, ...agentInput } = options.agent ?? {};
    const agent = createAgent(this.tenant, { customerId: customer.id, name: 'bot', ...agentInput });
    if (status) {
      agents.of(this.tenant).update(agent.id, (record) => {
        record.status = status;
      });
    }
    const card = this.addCard(agent, options.card);
    if (options.balance !== 0) simulateDeposit(this.tenant, { customerId: customer.id, amount: options.balance ?? 1_000_000 });
    this.events.length = 0;
    return { customer, agent, card };
  }

  risk(update: RiskConfigUpdate): void {
    this.state.risk = applyRiskUpdate(this.state.risk, update);
  }

  /** Event types since the last `clearEvents`. */
  types(): string[] {
    return this.events.map((event) => event.type);
  }

  clearEvents(): void {
    this.events.length = 0;
  }

  event(type: string, nth = 0): Record<string, unknown> {
    const found = this.events.filter((event) => event.type === type)[nth];
    if (!found) throw new Error(`No ${type} event among ${this.types().join(', ')}`);
    return found.data;
  }
}

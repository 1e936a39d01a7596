import type { ScheduledHandle } from '../core/scheduler.js';
import { defineCollection, defineTenantState, type Tenant } from '../core/tenant.js';
import { OperationMeter } from './aggregates/operation-meter.js';
import { rebuildSpend } from './aggregates/rebuild.js';
import { AgentSpendState, CardSpendState } from './aggregates/spend-state.js';
import type { AccessRecord } from './attestation.js';
import type { IntentRecord } from './intents/intent-record.js';
import { accessEvents, intents, transactions } from './records.js';
import { defaultRiskConfig, type RiskConfig } from './risk/risk-config.js';
import { getOrCreate } from '../core/get-or-create.js';

/** The organization's risk settings, one record (`id: 'risk'`), saved with the rest of the state. */
const settings = defineCollection<{ id: 'risk'; config: RiskConfig }>('engine.settings');

/**
 * The engine's working state of one organization and mode, beside the platform's records: the running spend
 * aggregates, each card's latest credential access, its open intents and its TTL timer. All of it is derived: it is
 * rebuilt from the transactions, access events and intents when a saved state is restored (the constructor runs on
 * first use). The risk settings are a record of their own.
 */
export class EngineTenantState {
  readonly meter = new OperationMeter();
  readonly #cards = new Map<string, CardSpendState>();
  readonly #agents = new Map<string, AgentSpendState>();
  readonly lastAccess = new Map<string, AccessRecord>();
  /** Intents in `pending_approval` or `pending`, by card, in creation order. */
  readonly #openIntents = new Map<string, Map<string, IntentRecord>>();
  readonly ttlTimers = new Map<string, ScheduledHandle>();
  readonly #defaultRisk = defaultRiskConfig();

  constructor(private readonly tenant: Tenant) {
    rebuildSpend(this, transactions.of(tenant).entries());
    for (const [, access] of accessEvents.of(tenant).entries()) this.lastAccess.set(access.cardId, access);
    for (const [, intent] of intents.of(tenant).entries()) {
      if (intent.status === 'pending' || intent.status === 'pending_approval')
        this.openIntents(intent.cardId).set(intent.id, intent);
    }
  }

  get risk(): RiskConfig {
    return settings.of(this.tenant).get('risk')?.config ?? this.#defaultRisk;
  }

  set risk(config: RiskConfig) {
    const records = settings.of(this.tenant);
    const updated = records.update('risk', (record) => {
      record.config = config;
    });
    if (!updated) records.insert({ id: 'risk', config });
  }

  cardState(cardId: string): CardSpendState {
    return getOrCreate(this.#cards, cardId, () => new CardSpendState(this.meter));
  }

  agentState(agentId: string): AgentSpendState {
    return getOrCreate(this.#agents, agentId, () => new AgentSpendState(this.meter));
  }

  openIntents(cardId: string): Map<string, IntentRecord> {
    return getOrCreate(this.#openIntents, cardId, () => new Map());
  }
}

const slot = defineTenantState('engine', (tenant) => new EngineTenantState(tenant));

export function engineState(tenant: Tenant): EngineTenantState {
  return slot.of(tenant);
}

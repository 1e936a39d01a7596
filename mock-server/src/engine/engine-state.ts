import type { ScheduledHandle } from '../core/scheduler.js';
import { defineTenantState, type Tenant } from '../core/tenant.js';
import { OperationMeter } from './aggregates/operation-meter.js';
import { AgentSpendState, CardSpendState } from './aggregates/spend-state.js';
import type { AccessRecord } from './attestation.js';
import type { IntentRecord } from './intents/intent-record.js';
import { defaultRiskConfig, type RiskConfig } from './risk/risk-config.js';
import { getOrCreate } from '../core/get-or-create.js';

/**
 * The engine's working state of one organization and mode, beside the platform's records: risk settings, the
 * running spend aggregates, each card's latest credential access, its open intents and its TTL timer.
 */
export class EngineTenantState {
  risk: RiskConfig = defaultRiskConfig();
  readonly meter = new OperationMeter();
  readonly #cards = new Map<string, CardSpendState>();
  readonly #agents = new Map<string, AgentSpendState>();
  readonly lastAccess = new Map<string, AccessRecord>();
  /** Intents in `pending_approval` or `pending`, by card, in creation order. */
  readonly #openIntents = new Map<string, Map<string, IntentRecord>>();
  readonly ttlTimers = new Map<string, ScheduledHandle>();
  /** Cards whose TTL has run out (their expiry ran once). */
  readonly expiredCards = new Set<string>();

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

const slot = defineTenantState('engine', () => new EngineTenantState());

export function engineState(tenant: Tenant): EngineTenantState {
  return slot.of(tenant);
}

import type { PolicyChange, Tenant } from '../core/tenant.js';
import type { EngineAgent, EngineCard, EngineCustomer, EpochMs } from './types.js';

import type { CardClosedReason, CardFrozenReason } from '../domain/cards.js';
import type { DepositAddress } from '../domain/customers.js';

export type { CardClosedReason, CardFrozenReason, DepositAddress };

/** The card fields the engine maintains on the platform's card record. */
export interface CardSpendFields {
  lastSpendAt?: EpochMs;
  firstSpendAt?: EpochMs;
  singleUseConsumedAt?: EpochMs;
  merchantLock?: string;
  expiresAt?: EpochMs | null;
}

/**
 * What the engine needs from the platform, which owns customers, agents and cards and their transitions. The
 * engine never writes those records directly: it goes through these, so a card frozen by policy emits the same
 * `card.frozen` as one frozen through the API.
 */
export interface PlatformPorts {
  card(tenant: Tenant, cardId: string): EngineCard | undefined;
  agent(tenant: Tenant, agentId: string): EngineAgent | undefined;
  customer(tenant: Tenant, customerId: string): EngineCustomer | undefined;
  /** Freezes an active card and emits `card.frozen` with `frozenBy: system`. */
  freezeCard(tenant: Tenant, cardId: string, reason: CardFrozenReason): void;
  /** Closes a card and emits `card.closed` with `closedBy: system`. */
  closeCard(tenant: Tenant, cardId: string, reason: CardClosedReason): void;
  /** Changes a card's status without an event of its own (the engine emits the event that explains it). */
  setCardStatus(tenant: Tenant, cardId: string, status: 'frozen' | 'closed'): void;
  /** Suspends an agent as the platform does (`agent.suspended`, its active cards frozen with `agent_suspended`). */
  suspendAgent(tenant: Tenant, agentId: string, reason: 'spending_limit_exceeded'): void;
  /** Sets an agent `suspended` without an event (the risk engine emits `agent.auto_suspended`). */
  setAgentSuspended(tenant: Tenant, agentId: string): void;
  /** The agent's cards whose status is `active`. */
  activeCardIds(tenant: Tenant, agentId: string): string[];
  /** The cards not closed yet whose merged policy includes the policy of this customer, agent or card. */
  openCardIdsUnder(tenant: Tenant, owner: PolicyChange): string[];
  recordCardFields(tenant: Tenant, cardId: string, fields: CardSpendFields): void;
  /** Records a KYC outcome on the customer (and the deposit address once approved). */
  recordKyc(tenant: Tenant, customerId: string, status: 'approved' | 'denied' | 'needsInformation', address: DepositAddress | null): void;
}

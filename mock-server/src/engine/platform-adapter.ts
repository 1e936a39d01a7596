import type { Tenant } from '../core/tenant.js';
import { agents, suspendAgent, type AgentRecord } from '../domain/agents.js';
import { cards, closeCard, freezeCard, type CardRecord } from '../domain/cards.js';
import { customers } from '../domain/customers.js';
import type { PlatformPorts } from './platform-ports.js';
import type { EngineAgent, EngineCard } from './types.js';

export function toEngineCard(card: CardRecord): EngineCard {
  return {
    id: card.id,
    customerId: card.customerId,
    agentId: card.agentId,
    usage: card.usage,
    status: card.status,
    policy: card.policy,
    spendingLimit: card.limits,
    merchantHint: card.merchantHint,
    merchantLock: card.merchantLock,
    pan: card.pan,
    cvc: card.cvc,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    firstSpendAt: card.firstSpendAt,
    createdAt: card.createdAt,
  };
}

function toEngineAgent(agent: AgentRecord): EngineAgent {
  return { id: agent.id, customerId: agent.customerId, status: agent.status, policy: agent.policy, limits: agent.limits };
}

function record(tenant: Tenant, cardId: string): CardRecord {
  const card = cards.of(tenant).get(cardId);
  if (!card) throw new Error(`The engine referred to an unknown card ${cardId}`);
  return card;
}

/** The engine's PlatformPorts over the platform's records and transitions (src/domain). */
export const platformPorts: PlatformPorts = {
  card: (tenant, cardId) => {
    const card = cards.of(tenant).get(cardId);
    return card && toEngineCard(card);
  },
  agent: (tenant, agentId) => {
    const agent = agents.of(tenant).get(agentId);
    return agent && toEngineAgent(agent);
  },
  customer: (tenant, customerId) => {
    const customer = customers.of(tenant).get(customerId);
    // A deleted customer has left the collection (customer-deletion.ts): money operations answer 404 for it.
    return customer && { id: customer.id, email: customer.email, policy: customer.policy };
  },
  freezeCard: (tenant, cardId, reason) => {
    freezeCard(tenant, record(tenant, cardId), reason, 'system');
  },
  closeCard: (tenant, cardId, reason) => {
    closeCard(tenant, record(tenant, cardId), reason, 'system');
  },
  setCardStatus: (tenant, cardId, status) => {
    cards.of(tenant).update(cardId, (card) => {
      card.status = status;
      // Frozen by the risk engine or a TTL: no reason of the card.frozen enumeration applies.
      card.frozenReason = null;
    });
  },
  suspendAgent: (tenant, agentId, reason) => {
    const agent = agents.of(tenant).get(agentId);
    if (agent && agent.status !== 'suspended') suspendAgent(tenant, agent, reason, 'system');
  },
  setAgentSuspended: (tenant, agentId) => {
    agents.of(tenant).update(agentId, (agent) => {
      agent.status = 'suspended';
    });
  },
  activeCardIds: (tenant, agentId) => [...cards.of(tenant).values({ agentId, status: 'active' })].map((card) => card.id),
  openCardIdsUnder: (tenant, owner) => {
    if (owner.owner === 'card') return cards.of(tenant).get(owner.id)?.status === 'closed' ? [] : [owner.id];
    // Only the owner's own cards are visited (indexed by agent or customer), never the whole collection.
    const where = owner.owner === 'agent' ? { agentId: owner.id } : { customerId: owner.id };
    return [...cards.of(tenant).values(where)].filter((card) => card.status !== 'closed').map((card) => card.id);
  },
  recordCardFields: (tenant, cardId, fields) => {
    cards.of(tenant).update(cardId, (card) => {
      if (fields.lastSpendAt !== undefined) card.lastSpendAt = fields.lastSpendAt;
      if (fields.firstSpendAt !== undefined) card.firstSpendAt = fields.firstSpendAt;
      if (fields.singleUseConsumedAt !== undefined) card.singleUseConsumedAt = fields.singleUseConsumedAt;
      if (fields.merchantLock !== undefined) card.merchantLock = fields.merchantLock;
      if (fields.expiresAt !== undefined) card.expiresAt = fields.expiresAt;
    });
  },
  recordKyc: (tenant, customerId, status, address) => {
    customers.of(tenant).update(customerId, (customer) => {
      customer.kycStatus = status;
      if (address) customer.depositAddress = address;
      // An approved application activates a pending customer.
      if (status === 'approved' && customer.status === 'pending') customer.status = 'active';
    });
  },
};

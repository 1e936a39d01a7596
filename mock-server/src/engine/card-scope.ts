import { notFound } from '../core/errors.js';
import type { Tenant } from '../core/tenant.js';
import { agents, type AgentRecord } from '../domain/agents.js';
import { cards, type CardRecord } from '../domain/cards.js';
import { customers, type CustomerRecord } from '../domain/customers.js';
import { effectivePolicy } from './policy/card-policy.js';
import type { Policy } from './types.js';

/**
 * A card with its agent, customer and merged policy: what every spend decision reads. The records are the
 * platform's own (live: a transition made meanwhile shows here); the policy is merged once, when loaded.
 */
export interface CardScope {
  card: CardRecord;
  agent: AgentRecord | undefined;
  customer: CustomerRecord | undefined;
  policy: Policy;
}

/** Loads a card and what its policy depends on; 404 when the card does not exist in this organization and mode. */
export function loadCardScope(tenant: Tenant, cardId: string): CardScope {
  const card = cards.of(tenant).get(cardId);
  if (!card) throw notFound();
  return scopeOf(tenant, card);
}

/** The scope of a card already at hand. */
export function scopeOf(tenant: Tenant, card: CardRecord): CardScope {
  const agent = card.agentId === null ? undefined : agents.of(tenant).get(card.agentId);
  const customer = customers.of(tenant).get(card.customerId);
  return { card, agent, customer, policy: effectivePolicy(customer, agent, card) };
}

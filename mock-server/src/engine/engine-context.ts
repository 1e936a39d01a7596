import type { Tenant } from '../core/tenant.js';
import { effectivePolicy } from './policy/card-policy.js';
import type { PlatformPorts } from './platform-ports.js';
import type { EngineAgent, EngineCard, EngineCustomer, Policy } from './types.js';
import { notFound } from '../http/errors.js';

/** One organization and mode, and the platform the engine acts through. */
export interface EngineContext {
  tenant: Tenant;
  platform: PlatformPorts;
}

/** A card with its agent, customer and merged policy. */
export interface CardScope {
  card: EngineCard;
  agent: EngineAgent | undefined;
  customer: EngineCustomer | undefined;
  policy: Policy;
}

/** Loads a card and what its policy depends on; 404 when the card does not exist in this organization and mode. */
export function loadCardScope(ctx: EngineContext, cardId: string): CardScope {
  const card = ctx.platform.card(ctx.tenant, cardId);
  if (!card) throw notFound();
  const agent = card.agentId ? ctx.platform.agent(ctx.tenant, card.agentId) : undefined;
  const customer = ctx.platform.customer(ctx.tenant, card.customerId);
  return { card, agent, customer, policy: effectivePolicy(customer, agent, card) };
}

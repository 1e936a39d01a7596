import type { ApiSchemas, Stored } from '../core/stored.js';
import { defineCollection, type Tenant } from '../core/tenant.js';
import { invalidState, notFound } from '../core/errors.js';
import { cards, closeCard, freezeCard } from './cards.js';
import type { Actor, Metadata, Policy, SpendingLimit } from './types.js';

export type AgentRecord = Stored<ApiSchemas['Agent']>;

export const agents = defineCollection<AgentRecord>('agents', {
  filters: { customerId: (agent) => agent.customerId, status: (agent) => agent.status },
});

export function requireAgent(tenant: Tenant, id: string): AgentRecord {
  const agent = agents.of(tenant).get(id);
  if (!agent) throw notFound();
  return agent;
}

export interface AgentInput {
  customerId: string;
  name: string;
  externalId?: string;
  limits?: SpendingLimit;
  policy?: Policy;
  metadata?: Metadata;
}

export function createAgent(tenant: Tenant, input: AgentInput): AgentRecord {
  const agent = agents.of(tenant).insert({
    id: tenant.ids.next('agent'),
    name: input.name,
    status: 'active',
    customerId: input.customerId,
    externalId: input.externalId ?? null,
    limits: input.limits ?? null,
    policy: input.policy ?? {},
    metadata: input.metadata ?? {},
    createdAt: tenant.now(),
  });
  tenant.emit('agent.created', { agentId: agent.id, userId: agent.customerId, name: agent.name, status: 'active' });
  return agent;
}

export type AgentPatch = Partial<Pick<AgentInput, 'name' | 'policy' | 'metadata' | 'limits'>>;

/** Applies an update; a change of policy or limits is told to the tenant's policy-change listeners. */
export function updateAgent(tenant: Tenant, agent: AgentRecord, patch: AgentPatch): AgentRecord {
  agents.of(tenant).update(agent.id, (record) => {
    if (patch.name !== undefined) record.name = patch.name;
    if (patch.policy !== undefined) record.policy = patch.policy;
    if (patch.metadata !== undefined) record.metadata = patch.metadata;
    if (patch.limits !== undefined) record.limits = patch.limits;
  });
  if (patch.policy !== undefined || patch.limits !== undefined) tenant.policyChanged({ owner: 'agent', id: agent.id });
  return agent;
}

/**
 * active -> suspended (`agent.suspended`), then every active card of the agent is frozen with reason
 * `agent_suspended`. The engine calls this with reason `spending_limit_exceeded` and actor `system`.
 * Returns how many cards were frozen.
 */
export function suspendAgent(
  tenant: Tenant,
  agent: AgentRecord,
  reason: 'manual' | 'spending_limit_exceeded',
  by: Actor,
): number {
  if (agent.status === 'suspended') throw invalidState('The agent is already suspended.', { status: agent.status });
  agents.of(tenant).update(agent.id, (record) => {
    record.status = 'suspended';
  });
  tenant.emit('agent.suspended', { agentId: agent.id, userId: agent.customerId, reason, suspendedBy: by });
  return freezeActiveCardsOf(tenant, agent.id);
}

/** Suspends an agent without `agent.suspended`, for a suspension `agent.auto_suspended` explains (the risk engine). */
export function markAgentSuspended(tenant: Tenant, agent: AgentRecord): void {
  agents.of(tenant).update(agent.id, (record) => {
    record.status = 'suspended';
  });
}

/** Freezes every active card of an agent with reason `agent_suspended`; returns how many. */
function freezeActiveCardsOf(tenant: Tenant, agentId: string): number {
  const active = [...cards.of(tenant).values({ agentId, status: 'active' })];
  for (const card of active) freezeCard(tenant, card, 'agent_suspended', 'system');
  return active.length;
}

/** suspended (or paused, disabled) -> active, with `agent.activated`. Cards stay as they are. */
export function activateAgent(tenant: Tenant, agent: AgentRecord, by: Actor): AgentRecord {
  if (agent.status === 'active') throw invalidState('The agent is already active.', { status: agent.status });
  const previousStatus = agent.status;
  agents.of(tenant).update(agent.id, (record) => {
    record.status = 'active';
  });
  tenant.emit('agent.activated', { agentId: agent.id, userId: agent.customerId, previousStatus, activatedBy: by });
  return agent;
}

/** Deletes an agent: every card of it that is not closed yet is closed with reason `agent_deleted`. */
export function deleteAgent(tenant: Tenant, agent: AgentRecord, by: Actor): void {
  for (const card of [...cards.of(tenant).values({ agentId: agent.id })]) {
    if (card.status !== 'closed') closeCard(tenant, card, 'agent_deleted', by);
  }
  agents.of(tenant).delete(agent.id);
}

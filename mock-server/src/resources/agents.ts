import { notFound } from '../core/errors.js';
import { activateAgent, agents, createAgent, deleteAgent, requireAgent, suspendAgent, updateAgent } from '../domain/agents.js';
import { customers } from '../domain/customers.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';

export const agentHandlers = {
  createAgent: (ctx) => {
    // An id of another organization or mode, or of a deleted customer, is as unknown as a made-up one: 404.
    if (!customers.of(ctx.tenant).get(ctx.body.customerId)) throw notFound();
    return createAgent(ctx.tenant, ctx.body);
  },
  listAgents: (ctx) => listPage(agents.of(ctx.tenant), ctx.query, { customerId: ctx.query.customerId, status: ctx.query.status }),
  getAgent: (ctx) => requireAgent(ctx.tenant, ctx.params.agentId),
  updateAgent: (ctx) => updateAgent(ctx.tenant, requireAgent(ctx.tenant, ctx.params.agentId), ctx.body),
  deleteAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId);
    deleteAgent(ctx.tenant, agent, 'system');
    return { id: agent.id, deleted: true as const };
  },
  suspendAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId);
    suspendAgent(ctx.tenant, agent, 'manual', 'api');
    return agent;
  },
  activateAgent: (ctx) => activateAgent(ctx.tenant, requireAgent(ctx.tenant, ctx.params.agentId), 'api'),
} satisfies Partial<NeutralHandlers>;

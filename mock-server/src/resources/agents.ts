import {
  activateAgent,
  agents,
  createAgent,
  deleteAgent,
  renderAgent,
  requireAgent,
  suspendAgent,
  updateAgent,
} from '../domain/agents.js';
import { customers } from '../domain/customers.js';
import { notFound } from '../core/errors.js';
import type { HandlerMap } from '../http/operation-handler.js';
import { listPage } from './pagination.js';

export const agentHandlers: HandlerMap = {
  createAgent: (ctx) => {
    const customer = customers.of(ctx.tenant).get(ctx.body.customerId);
    // An id of another organization or mode, or of a deleted customer, is as unknown as a made-up one: 404.
    if (!customer) throw notFound();
    return { body: renderAgent(createAgent(ctx.tenant, ctx.body)) };
  },
  listAgents: (ctx) => ({
    body: listPage(agents.of(ctx.tenant), ctx.query, renderAgent, {
      customerId: ctx.query.customerId as string | undefined,
      status: ctx.query.status as string | undefined,
    }),
  }),
  getAgent: (ctx) => ({ body: renderAgent(requireAgent(ctx.tenant, ctx.params.agentId as string)) }),
  updateAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId as string);
    return { body: renderAgent(updateAgent(ctx.tenant, agent, ctx.body)) };
  },
  deleteAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId as string);
    deleteAgent(ctx.tenant, agent, 'system');
    return { body: { id: agent.id, deleted: true } };
  },
  suspendAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId as string);
    suspendAgent(ctx.tenant, agent, 'manual', 'api');
    return { body: renderAgent(agent) };
  },
  activateAgent: (ctx) => {
    const agent = requireAgent(ctx.tenant, ctx.params.agentId as string);
    return { body: renderAgent(activateAgent(ctx.tenant, agent, 'api')) };
  },
};

import { agents, requireAgent } from '../domain/agents.js';
import {
  cards,
  closeCard,
  createCard,
  freezeCard,
  renderCard,
  requireCard,
  unfreezeCard,
  updateCardSettings,
} from '../domain/cards.js';
import { customers } from '../domain/customers.js';
import type { Policy } from '../domain/types.js';
import { invalidRequest, invalidState, notFound } from '../core/errors.js';
import type { HandlerMap, OperationContext } from '../http/operation-handler.js';
import { listPage } from './pagination.js';

function createForCustomerVariant(ctx: OperationContext) {
  const body = ctx.body;
  const customer = customers.of(ctx.tenant).get(body.customerId);
  // Deleted customers leave the collection (customer-deletion.ts): 404 like any unknown id.
  if (!customer) throw notFound();
  if (body.agentId !== undefined) {
    const agent = agents.of(ctx.tenant).get(body.agentId);
    if (!agent) throw notFound();
    if (agent.customerId !== customer.id) throw invalidRequest('/body/agentId', 'belongs to another customer');
    if (agent.status !== 'active') throw invalidState(`The agent is ${agent.status}.`, { agentId: agent.id });
  }
  return createCard(ctx.tenant, {
    customerId: customer.id,
    agentId: body.agentId ?? null,
    type: body.type,
    usage: body.usage,
    limits: body.limits ?? null,
    policy: body.policy,
    merchantHint: body.merchantHint ?? null,
    billing: body.billing ?? null,
    configuration: body.configuration ?? null,
  });
}

function createForUserVariant(ctx: OperationContext) {
  const body = ctx.body;
  const agent = requireAgent(ctx.tenant, body.agentId);
  if (agent.status !== 'active') throw invalidState(`The agent is ${agent.status}.`, { agentId: agent.id });
  // The user-variant card keeps its controls as top-level fields; they are the card's policy underneath.
  const policy: Policy = {};
  if (body.limits !== undefined) policy.limits = body.limits;
  if (body.ttlDays !== undefined) policy.ttlDays = body.ttlDays;
  if (body.requireApproval !== undefined) policy.requireApproval = body.requireApproval;
  if (body.autoApproveBelow !== undefined) policy.autoApproveBelow = body.autoApproveBelow;
  return createCard(ctx.tenant, {
    customerId: agent.customerId,
    agentId: agent.id,
    usage: body.type,
    purpose: body.purpose,
    policy,
    merchantHint: body.merchantHint ?? null,
  });
}

export const cardHandlers: HandlerMap = {
  createCard: (ctx) => {
    const card = ctx.variant === 'customer' ? createForCustomerVariant(ctx) : createForUserVariant(ctx);
    return { body: renderCard(card, ctx.variant) };
  },
  listCards: (ctx) => ({
    body: listPage(cards.of(ctx.tenant), ctx.query, (card) => renderCard(card, ctx.variant), {
      customerId: ctx.query.customerId as string | undefined,
      agentId: ctx.query.agentId as string | undefined,
      status: ctx.query.status as string | undefined,
    }),
  }),
  getCard: (ctx) => ({ body: renderCard(requireCard(ctx.tenant, ctx.params.cardId as string), ctx.variant) }),
  updateCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId as string);
    const body = ctx.body;
    updateCardSettings(
      ctx.tenant,
      card,
      ctx.variant === 'customer'
        ? { policy: body.policy, billing: body.billing, configuration: body.configuration }
        : { policyLimits: body.limits },
    );
    if (body.status === 'frozen') freezeCard(ctx.tenant, card, 'manual', 'api');
    if (body.status === 'active') unfreezeCard(ctx.tenant, card);
    return { body: renderCard(card, ctx.variant) };
  },
  freezeCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId as string);
    freezeCard(ctx.tenant, card, 'manual', 'api');
    return { body: renderCard(card, ctx.variant) };
  },
  closeCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId as string);
    closeCard(ctx.tenant, card, 'manual', 'api');
    return { body: renderCard(card, ctx.variant) };
  },
};

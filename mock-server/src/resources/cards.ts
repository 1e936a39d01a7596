import { invalidRequest, invalidState, notFound } from '../core/errors.js';
import { requireAgent } from '../domain/agents.js';
import { cards, closeCard, createCard, freezeCard, requireCard, unfreezeCard, updateCardSettings } from '../domain/cards.js';
import { customers } from '../domain/customers.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';

export const cardHandlers = {
  /**
   * The customer variant names the customer (and optionally its agent), the user variant only the agent, whose
   * customer owns the card. A named agent must belong to the customer and be active.
   */
  createCard: (ctx) => {
    const { body } = ctx;
    const agent = body.agentId === undefined ? undefined : requireAgent(ctx.tenant, body.agentId);
    // Deleted customers leave the collection (customer-deletion.ts): 404 like any unknown id.
    const customer = customers.of(ctx.tenant).get(body.customerId ?? agent?.customerId ?? '');
    if (!customer) throw notFound();
    if (agent && agent.customerId !== customer.id) throw invalidRequest('/body/agentId', 'belongs to another customer');
    if (agent && agent.status !== 'active') throw invalidState(`The agent is ${agent.status}.`, { agentId: agent.id });
    return createCard(ctx.tenant, {
      customerId: customer.id,
      agentId: agent?.id ?? null,
      type: body.type,
      usage: body.usage,
      purpose: body.purpose,
      limits: body.limits ?? null,
      policy: body.policy,
      merchantHint: body.merchantHint ?? null,
      billing: body.billing ?? null,
      configuration: body.configuration ?? null,
    });
  },
  listCards: (ctx) =>
    listPage(cards.of(ctx.tenant), ctx.query, {
      customerId: ctx.query.customerId,
      agentId: ctx.query.agentId,
      status: ctx.query.status,
    }),
  getCard: (ctx) => requireCard(ctx.tenant, ctx.params.cardId),
  updateCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId);
    const { status, ...settings } = ctx.body;
    updateCardSettings(ctx.tenant, card, settings);
    if (status === 'frozen') freezeCard(ctx.tenant, card, 'manual', 'api');
    if (status === 'active') unfreezeCard(ctx.tenant, card);
    return card;
  },
  freezeCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId);
    freezeCard(ctx.tenant, card, 'manual', 'api');
    return card;
  },
  closeCard: (ctx) => {
    const card = requireCard(ctx.tenant, ctx.params.cardId);
    closeCard(ctx.tenant, card, 'manual', 'api');
    return card;
  },
} satisfies Partial<NeutralHandlers>;

import { cards } from '../../domain/cards.js';
import type { HandlerMap, OperationContext, OperationHandler } from '../../http/operation-handler.js';
import { agentHandlers } from '../../resources/agents.js';
import { cardHandlers } from '../../resources/cards.js';
import { customerHandlers } from '../../resources/customers.js';
import { scheduleCardTtl } from '../ttl.js';
import { engineContext } from './handlers.js';

/**
 * A card's TTL comes from its merged policy, so a policy change on the card, its agent or its customer moves the
 * expiry. The platform emits no event for those changes; these wrappers let the platform's own handler serve the
 * request, then re-arm the TTL of the cards concerned.
 */
function thenRearm(handler: OperationHandler | undefined, cardsOf: (ctx: OperationContext) => string[]): OperationHandler {
  if (!handler) throw new Error('The platform handler to wrap is missing');
  return async (ctx) => {
    const result = await handler(ctx);
    if (ctx.body?.policy !== undefined || ctx.body?.ttlDays !== undefined) {
      for (const cardId of cardsOf(ctx)) scheduleCardTtl(engineContext(ctx), cardId);
    }
    return result;
  };
}

const cardIdsWhere = (ctx: OperationContext, where: Record<string, string>) =>
  [...cards.of(ctx.tenant).values(where)].filter((card) => card.status !== 'closed').map((card) => card.id);

const ofCustomer = (ctx: OperationContext) => cardIdsWhere(ctx, { customerId: (ctx.params.customerId ?? ctx.params.userId) as string });

export const policyChangeHooks: HandlerMap = {
  updateCard: thenRearm(cardHandlers.updateCard, (ctx) => [ctx.params.cardId as string]),
  updateAgent: thenRearm(agentHandlers.updateAgent, (ctx) => cardIdsWhere(ctx, { agentId: ctx.params.agentId as string })),
  updateCustomer: thenRearm(customerHandlers.updateCustomer, ofCustomer),
  updateUser: thenRearm(customerHandlers.updateUser, ofCustomer),
};

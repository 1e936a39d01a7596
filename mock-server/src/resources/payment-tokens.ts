import type { NeutralHandlers } from '../operations/neutral.js';
import { revokeToken } from '../engine/payment-tokens/token-lifecycle.js';
import {
  createPaymentToken,
  getPaymentToken,
  listPaymentTokens,
  requirePaymentToken,
} from '../engine/payment-tokens/token-service.js';
import { viewOf } from '../engine/payment-tokens/token-view.js';

/** Payment tokens (docs/payment-tokens.md): minted by the engine after its spend checks, listed on their card. */
export const paymentTokenHandlers = {
  createPaymentToken: (ctx) => createPaymentToken(ctx.tenant, ctx.params.cardId, ctx.body, ctx.services.approvalPage),
  listPaymentTokens: (ctx) => listPaymentTokens(ctx.tenant, ctx.params.cardId, ctx.query),
  getPaymentToken: (ctx) => getPaymentToken(ctx.tenant, ctx.params.paymentTokenId),
  revokePaymentToken: (ctx) =>
    viewOf(ctx.tenant, revokeToken(ctx.tenant, requirePaymentToken(ctx.tenant, ctx.params.paymentTokenId), 'api')),
} satisfies Partial<NeutralHandlers>;

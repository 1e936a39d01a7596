import { cardStatusIn } from '../../domain/cards.js';
import type { HandlerMap, OperationContext } from '../../http/operation-handler.js';
import { listPage } from '../../resources/pagination.js';
import { retrieveCredentials } from '../credentials.js';
import { evaluateSpendRequest } from '../decision/spend-evaluation.js';
import { engineState } from '../engine-state.js';
import { approveIntent, createIntent, getIntent, rejectIntent } from '../intents/intent-service.js';
import { simulateDeposit } from '../money/deposits.js';
import { simulateKyc } from '../money/kyc.js';
import { confirmWithdrawal, createWithdrawal, failWithdrawal, getWithdrawal } from '../money/withdrawals.js';
import { cardPolicySummary } from '../policy/policy-summary.js';
import { intents, transactions } from '../records.js';
import { applyRiskUpdate } from '../risk/risk-config.js';
import { authorize } from '../transactions/authorize.js';
import { getTransaction, openDispute, resolveDispute, reverseTransaction, settleTransaction } from '../transactions/settlement.js';
import { renderDeposit, renderDispute, renderIntent, renderKyc, renderTransaction, renderWithdrawal } from './render.js';


const param = (ctx: OperationContext, name: string) => ctx.params[name] as string;
const optional = (query: unknown) => (typeof query === 'string' ? query : undefined);

const createCustomerOrUserWithdrawal = (ctx: OperationContext) => {
  const customerId = (ctx.params.customerId ?? ctx.params.userId) as string;
  return { body: renderWithdrawal(createWithdrawal(ctx.tenant, customerId, ctx.body)) };
};

/** The operations the spend and risk engine serves, by operationId (both variants answer the same shapes). */
export const engineHandlers: HandlerMap = {
  createIntent: (ctx) => ({ body: renderIntent(createIntent(ctx.tenant, ctx.body)) }),
  listIntents: (ctx) => ({
    body: listPage(intents.of(ctx.tenant), ctx.query, renderIntent, {
      cardId: optional(ctx.query.cardId),
      status: optional(ctx.query.status),
    }),
  }),
  getIntent: (ctx) => ({ body: renderIntent(getIntent(ctx.tenant, param(ctx, 'intentId'))) }),
  approveIntent: (ctx) => ({ body: renderIntent(approveIntent(ctx.tenant, param(ctx, 'intentId'))) }),
  rejectIntent: (ctx) => ({ body: renderIntent(rejectIntent(ctx.tenant, param(ctx, 'intentId'), ctx.body?.reason)) }),

  createCardCredentials: (ctx) => {
    const credentials = retrieveCredentials(ctx.tenant, param(ctx, 'cardId'), ctx.body ?? {});
    const { accessEvent, ...card } = credentials;
    return { body: { ...card, accessEventId: accessEvent.id, expiresAt: new Date(accessEvent.expiresAt).toISOString() } };
  },
  getCardPolicy: (ctx) => {
    const { card, summary } = cardPolicySummary(ctx.tenant, param(ctx, 'cardId'));
    return { body: { ...summary, status: cardStatusIn(ctx.variant, card.status) } };
  },
  evaluateSpend: (ctx) => ({ body: evaluateSpendRequest(ctx.tenant, ctx.body) }),

  getRiskSettings: (ctx) => ({ body: engineState(ctx.tenant).risk }),
  updateRiskSettings: (ctx) => {
    const state = engineState(ctx.tenant);
    state.risk = applyRiskUpdate(state.risk, ctx.body);
    return { body: state.risk };
  },

  listTransactions: (ctx) => ({
    body: listPage(transactions.of(ctx.tenant), ctx.query, renderTransaction, {
      cardId: optional(ctx.query.cardId),
      agentId: optional(ctx.query.agentId),
      status: optional(ctx.query.status),
    }),
  }),
  getTransaction: (ctx) => ({ body: renderTransaction(getTransaction(ctx.tenant, param(ctx, 'transactionId'))) }),

  simulateAuthorization: (ctx) => ({ body: renderTransaction(authorize(ctx.tenant, ctx.body)) }),
  simulateSettlement: (ctx) => ({
    body: renderTransaction(settleTransaction(ctx.tenant, param(ctx, 'transactionId'), ctx.body?.amount)),
  }),
  simulateReversal: (ctx) => ({
    body: renderTransaction(reverseTransaction(ctx.tenant, param(ctx, 'transactionId'), ctx.body?.amount)),
  }),
  simulateDispute: (ctx) => ({ body: renderDispute(openDispute(ctx.tenant, param(ctx, 'transactionId'), ctx.body ?? {})) }),
  simulateDisputeResolution: (ctx) => ({
    body: renderDispute(resolveDispute(ctx.tenant, param(ctx, 'disputeId'), ctx.body.outcome)),
  }),

  simulateDeposit: (ctx) => {
    const { userId, customerId, ...rest } = ctx.body;
    return { body: renderDeposit(simulateDeposit(ctx.tenant, { ...rest, customerId: customerId ?? userId })) };
  },
  simulateKyc: (ctx) => {
    const { userId, customerId, ...rest } = ctx.body;
    return { body: renderKyc(simulateKyc(ctx.tenant, { ...rest, customerId: customerId ?? userId })) };
  },
  createCustomerWithdrawal: createCustomerOrUserWithdrawal,
  createUserWithdrawal: createCustomerOrUserWithdrawal,
  getWithdrawal: (ctx) => ({ body: renderWithdrawal(getWithdrawal(ctx.tenant, param(ctx, 'withdrawalId'))) }),
  simulateWithdrawalConfirmation: (ctx) => ({
    body: renderWithdrawal(confirmWithdrawal(ctx.tenant, param(ctx, 'withdrawalId'))),
  }),
  simulateWithdrawalFailure: (ctx) => ({ body: renderWithdrawal(failWithdrawal(ctx.tenant, param(ctx, 'withdrawalId'))) }),
};

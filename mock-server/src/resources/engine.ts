import { invalidRequest } from '../core/errors.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import { listPage } from '../core/list-page.js';
import { retrieveCredentials } from '../engine/credentials.js';
import { evaluateSpendRequest } from '../engine/decision/spend-evaluation.js';
import { engineState } from '../engine/engine-state.js';
import { approveIntent, createIntent, getIntent, rejectIntent } from '../engine/intents/intent-service.js';
import { simulateDeposit } from '../engine/money/deposits.js';
import { simulateKyc } from '../engine/money/kyc.js';
import { confirmWithdrawal, createWithdrawal, failWithdrawal, getWithdrawal } from '../engine/money/withdrawals.js';
import { cardPolicySummary } from '../engine/policy/policy-summary.js';
import { intents, transactions } from '../engine/records.js';
import { applyRiskUpdate } from '../engine/risk/risk-config.js';
import { authorize } from '../engine/transactions/authorize.js';
import { authorizeWithToken } from '../engine/payment-tokens/token-authorization.js';
import { receiptForSettlement } from '../engine/mandates/receipts.js';
import { presentAgentMandate, presentEvaluationMandate } from '../engine/mandates/agent-mandate.js';
import {
  getTransaction,
  openDispute,
  resolveDispute,
  reverseTransaction,
  settleTransaction,
} from '../engine/transactions/settlement.js';

/** The customer a simulation names, by either name (the spec requires one of the two). */
function ownerOf(customerId: string | undefined, userId: string | undefined): string {
  const id = customerId ?? userId;
  if (id === undefined) throw invalidRequest('/body/customerId', 'is required (or userId)');
  return id;
}

/** The operations the spend and risk engine serves, by operationId; the variants render what they return. */
export const engineHandlers = {
  createIntent: (ctx) => createIntent(ctx.tenant, ctx.body, ctx.services.approvalPage),
  listIntents: (ctx) => listPage(intents.of(ctx.tenant), ctx.query, { cardId: ctx.query.cardId, status: ctx.query.status }),
  getIntent: (ctx) => getIntent(ctx.tenant, ctx.params.intentId),
  approveIntent: (ctx) => approveIntent(ctx.tenant, ctx.params.intentId, { decidedBy: ctx.body?.decidedBy, apiKey: ctx.apiKey }),
  rejectIntent: (ctx) =>
    rejectIntent(ctx.tenant, ctx.params.intentId, ctx.body?.reason, { decidedBy: ctx.body?.decidedBy, apiKey: ctx.apiKey }),

  createCardCredentials: (ctx) => retrieveCredentials(ctx.tenant, ctx.params.cardId, ctx.body ?? {}),
  getCardPolicy: (ctx) => cardPolicySummary(ctx.tenant, ctx.params.cardId),
  evaluateSpend: async (ctx) => {
    const { agentMandate, ...request } = ctx.body;
    const mandate = await presentEvaluationMandate(ctx.tenant, request, agentMandate);
    return evaluateSpendRequest(ctx.tenant, request, mandate);
  },

  getRiskSettings: (ctx) => engineState(ctx.tenant).risk,
  updateRiskSettings: (ctx) => {
    const state = engineState(ctx.tenant);
    state.risk = applyRiskUpdate(state.risk, ctx.body);
    return state.risk;
  },

  listTransactions: (ctx) =>
    listPage(transactions.of(ctx.tenant), ctx.query, {
      cardId: ctx.query.cardId,
      agentId: ctx.query.agentId,
      status: ctx.query.status,
    }),
  getTransaction: (ctx) => getTransaction(ctx.tenant, ctx.params.transactionId),

  simulateAuthorization: async (ctx) => {
    const { cardId, token, agentMandate, ...rest } = ctx.body;
    if (token !== undefined) {
      const mandate = await presentAgentMandate(ctx.tenant, { ...rest, token }, agentMandate);
      return authorizeWithToken(ctx.tenant, { ...rest, token }, mandate);
    }
    // The schema requires one of the two.
    if (cardId === undefined) throw invalidRequest('/body/cardId', 'is required (or token)');
    const mandate = await presentAgentMandate(ctx.tenant, { ...rest, cardId }, agentMandate);
    return authorize(ctx.tenant, { ...rest, cardId }, undefined, mandate);
  },
  simulateSettlement: async (ctx) => {
    const receipt = await receiptForSettlement(ctx.tenant, ctx.params.transactionId);
    return settleTransaction(ctx.tenant, ctx.params.transactionId, ctx.body?.amount, receipt);
  },
  simulateReversal: (ctx) => reverseTransaction(ctx.tenant, ctx.params.transactionId, ctx.body?.amount),
  simulateDispute: (ctx) => openDispute(ctx.tenant, ctx.params.transactionId, ctx.body ?? {}),
  simulateDisputeResolution: (ctx) => resolveDispute(ctx.tenant, ctx.params.disputeId, ctx.body.outcome),

  simulateDeposit: (ctx) => {
    const { userId, customerId, ...rest } = ctx.body;
    return simulateDeposit(ctx.tenant, { ...rest, customerId: ownerOf(customerId, userId) });
  },
  simulateKyc: (ctx) => {
    const { userId, customerId, ...rest } = ctx.body;
    return simulateKyc(ctx.tenant, { ...rest, customerId: ownerOf(customerId, userId) });
  },
  createCustomerWithdrawal: (ctx) => createWithdrawal(ctx.tenant, ctx.params.customerId, ctx.body),
  getWithdrawal: (ctx) => getWithdrawal(ctx.tenant, ctx.params.withdrawalId),
  simulateWithdrawalConfirmation: (ctx) => confirmWithdrawal(ctx.tenant, ctx.params.withdrawalId),
  simulateWithdrawalFailure: (ctx) => failWithdrawal(ctx.tenant, ctx.params.withdrawalId),
} satisfies Partial<NeutralHandlers>;

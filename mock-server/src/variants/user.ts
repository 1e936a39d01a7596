import type { AnyStoredEvent } from '../core/event-types.js';
import type { CardRecord, CardStatus } from '../domain/cards.js';
import type { Policy } from '../domain/types.js';
import type { UserSchemas } from '../core/stored.js';
import type { VariantCodec } from './codec.js';
import { eventDataIn } from './event-data.js';
import { eventNaming } from '../core/event-naming.js';
import { renderDeposit, renderKyc, renderTransaction, renderWithdrawal } from './render/engine-records.js';
import { renderList } from './render/list.js';
import { renderAgent } from './render/platform-records.js';
import { renderPaymentToken } from './render/payment-token.js';
import { renderMandateIssuers } from './render/mandates.js';
import { withCustomerId, withUserId } from './owner-name.js';
import { renderPolicySummary } from './render/policy-summary.js';
import { eventOperations, sharedOperations, webhookOperations } from './shared.js';

/**
 * The user variant (`Api-Key`), the event catalog's: users in place of customers (the same objects, `/users` paths,
 * `userId` path parameters), the card with `userId`, `type` meaning single or multi use, `purpose`,
 * `expirationMonth`/`expirationYear`, its controls (`limits`, `ttlDays`, `requireApproval`, `autoApproveBelow`) as
 * top-level fields and `createdAt` in epoch ms; the `notActivated` status; the event-catalog envelope
 * (`organizationId`, `createdAt` epoch ms) and catalog event names. See docs/variants.md.
 */

/** The user variant's operationIds that are another neutral operation. */
const aliases = {
  createUser: 'createCustomer',
  listUsers: 'listCustomers',
  getUser: 'getCustomer',
  updateUser: 'updateCustomer',
  deleteUser: 'deleteCustomer',
  getUserBalances: 'getCustomerBalances',
  createUserWithdrawal: 'createCustomerWithdrawal',
  getUserMandateIssuers: 'getCustomerMandateIssuers',
  updateUserMandateIssuers: 'updateCustomerMandateIssuers',
} as const;

/** The user variant names every card status as it is. */
function cardStatus(status: CardStatus): CardStatus {
  return status;
}

/** The user-variant card: its controls are the card's policy underneath, shown as top-level fields when set. */
function renderCard(card: CardRecord): UserSchemas['UserCard'] {
  const body: UserSchemas['UserCard'] = {
    id: card.id,
    agentId: card.agentId,
    userId: card.customerId,
    type: card.usage,
    purpose: card.purpose,
    status: card.status,
    last4: card.last4,
    createdAt: card.createdAt,
    expirationMonth: card.expMonth,
    expirationYear: card.expYear,
  };
  if (card.policy.limits !== undefined) body.limits = card.policy.limits;
  if (card.merchantHint !== null) body.merchantHint = card.merchantHint;
  if (card.policy.ttlDays !== undefined) body.ttlDays = card.policy.ttlDays;
  if (card.policy.requireApproval !== undefined) body.requireApproval = card.policy.requireApproval;
  if (card.policy.autoApproveBelow !== undefined) body.autoApproveBelow = card.policy.autoApproveBelow;
  return body;
}

/** The event-catalog envelope: `organizationId`, `createdAt` epoch ms, catalog names. */
function renderEvent(event: AnyStoredEvent) {
  const type = eventNaming.nameIn('user', event.type);
  if (type === undefined) return undefined;
  return {
    type,
    envelope: {
      id: event.id,
      type,
      organizationId: event.organizationId,
      createdAt: event.createdAt,
      data: eventDataIn('user', event),
    },
  };
}

/** See the customer variant's envelopeOf: the `Event` union is met by construction. */
function envelopeOf(event: AnyStoredEvent): UserSchemas['AnyEvent'] {
  const rendered = renderEvent(event);
  if (!rendered) throw new Error(`The user variant has no event type ${event.type}.`);
  return rendered.envelope as UserSchemas['AnyEvent'];
}

/** The user-variant card controls, as the card's policy. */
function controlsAsPolicy(body: {
  limits?: Policy['limits'];
  ttlDays?: number;
  requireApproval?: boolean;
  autoApproveBelow?: number;
}): Policy {
  const policy: Policy = {};
  if (body.limits !== undefined) policy.limits = body.limits;
  if (body.ttlDays !== undefined) policy.ttlDays = body.ttlDays;
  if (body.requireApproval !== undefined) policy.requireApproval = body.requireApproval;
  if (body.autoApproveBelow !== undefined) policy.autoApproveBelow = body.autoApproveBelow;
  return policy;
}

/** The path's `userId` is the neutral `customerId`. */
const userPath = <Rest extends object>({ params, ...rest }: { params: { userId: string } } & Rest) => ({
  ...rest,
  params: { customerId: params.userId },
});

/** The records that name their owner, rendered with `userId`. */
const agentAsUser = (agent: Parameters<typeof renderAgent>[0]) => withUserId(renderAgent(agent));
const transactionAsUser = (txn: Parameters<typeof renderTransaction>[0]) => withUserId(renderTransaction(txn));
const withdrawalAsUser = (withdrawal: Parameters<typeof renderWithdrawal>[0]) => withUserId(renderWithdrawal(withdrawal));
const mandateIssuersAsUser = (view: Parameters<typeof renderMandateIssuers>[0]) => withUserId(renderMandateIssuers(view));
const paymentTokenAsUser = (view: Parameters<typeof renderPaymentToken>[0]) => withUserId(renderPaymentToken(view));

export const userCodec = {
  variant: 'user',
  aliases,
  renamedFields: { customerId: 'userId' },
  cardStatus,
  renderEvent,
  operations: {
    ...sharedOperations,
    ...webhookOperations('user'),
    ...eventOperations('user', envelopeOf),
    createUser: sharedOperations.createCustomer,
    listUsers: sharedOperations.listCustomers,
    getUser: { ...sharedOperations.getCustomer, decode: userPath },
    updateUser: { ...sharedOperations.updateCustomer, decode: userPath },
    deleteUser: { ...sharedOperations.deleteCustomer, decode: userPath },
    getUserBalances: { ...sharedOperations.getCustomerBalances, decode: userPath },
    createUserWithdrawal: { decode: userPath, encode: withdrawalAsUser },
    getUserMandateIssuers: { decode: userPath, encode: mandateIssuersAsUser },
    updateUserMandateIssuers: { decode: userPath, encode: mandateIssuersAsUser },
    getWithdrawal: { encode: withdrawalAsUser },
    simulateWithdrawalConfirmation: { encode: withdrawalAsUser },
    simulateWithdrawalFailure: { encode: withdrawalAsUser },

    createAgent: { decode: ({ params, query, body }) => ({ params, query, body: withCustomerId(body) }), encode: agentAsUser },
    listAgents: {
      decode: ({ params, query, body }) => ({ params, body, query: withCustomerId(query) }),
      encode: renderList(agentAsUser),
    },
    getAgent: { encode: agentAsUser },
    updateAgent: { encode: agentAsUser },
    suspendAgent: { encode: agentAsUser },
    activateAgent: { encode: agentAsUser },

    listTransactions: { encode: renderList(transactionAsUser) },
    getTransaction: { encode: transactionAsUser },
    simulateAuthorization: { encode: transactionAsUser },
    createPaymentToken: { encode: paymentTokenAsUser },
    listPaymentTokens: { encode: renderList(paymentTokenAsUser) },
    getPaymentToken: { encode: paymentTokenAsUser },
    revokePaymentToken: { encode: paymentTokenAsUser },
    simulateSettlement: { encode: transactionAsUser },
    simulateReversal: { encode: transactionAsUser },
    evaluateSpend: {
      decode: ({ params, query, body }) => ({ params, query, body: withCustomerId(body) }),
      encode: (evaluation) => ({ ...evaluation, context: withUserId(evaluation.context) }),
    },
    simulateDeposit: {
      decode: ({ params, query, body }) => ({ params, query, body: withCustomerId(body) }),
      encode: (deposit) => withUserId(renderDeposit(deposit)),
    },
    simulateKyc: {
      decode: ({ params, query, body }) => ({ params, query, body: withCustomerId(body) }),
      encode: (outcome) => withUserId(renderKyc(outcome)),
    },

    createCard: {
      decode: ({ params, query, body }) => ({
        params,
        query,
        body: {
          agentId: body.agentId,
          usage: body.type,
          purpose: body.purpose,
          merchantHint: body.merchantHint,
          policy: controlsAsPolicy(body),
        },
      }),
      encode: renderCard,
    },
    listCards: {
      decode: ({ params, query, body }) => ({ params, body, query: withCustomerId(query) }),
      encode: renderList(renderCard),
    },
    getCard: { encode: renderCard, storedRecord: true },
    updateCard: {
      decode: ({ params, query, body }) => ({ params, query, body: { status: body.status, policyLimits: body.limits } }),
      encode: renderCard,
    },
    freezeCard: { encode: renderCard },
    closeCard: { encode: renderCard },
    getCardPolicy: { encode: (result) => renderPolicySummary(result, cardStatus(result.card.status)) },
  },
} satisfies VariantCodec<'user', typeof aliases>;

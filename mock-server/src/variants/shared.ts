import type { AnyStoredEvent } from '../core/event-types.js';
import { renderIntentMandate, renderMandateIssuers } from './render/mandates.js';
import type { Variant } from '../core/variant.js';
import type { NoParameters } from '../operations/wire.js';
import type { WebhookRecord } from '../webhooks/records.js';
import type { CodecTable } from './codec.js';
import { eventNaming, eventTypeNames, storedEventTypes } from '../core/event-naming.js';
import { renderList } from './render/list.js';
import { renderPaymentToken } from './render/payment-token.js';
import {
  renderCredentials,
  renderDeposit,
  renderDispute,
  renderIntent,
  renderKyc,
  renderTransaction,
  renderWithdrawal,
} from './render/engine-records.js';
import {
  renderAgent,
  renderApiKey,
  renderBalance,
  renderAdvancedClock,
  renderClock,
  renderCreatedApiKey,
  renderCustomer,
  renderDelivery,
  renderWebhook,
  renderWebhookWithSecret,
} from './render/platform-records.js';

/**
 * The codecs of the operations both variants shape alike: they render the same records the same way. Each
 * variant's table spreads these and adds its own (customer.ts, user.ts); its `satisfies` checks every entry against
 * that variant's spec types, these included.
 */
export const sharedOperations = {
  createCustomer: { encode: renderCustomer },
  listCustomers: { encode: renderList(renderCustomer) },
  getCustomer: { encode: renderCustomer },
  updateCustomer: { encode: renderCustomer },
  deleteCustomer: { encode: renderCustomer },
  getCustomerBalances: { encode: renderBalance },
  createCustomerWithdrawal: { encode: renderWithdrawal },

  createAgent: { encode: renderAgent },
  listAgents: { encode: renderList(renderAgent) },
  getAgent: { encode: renderAgent },
  updateAgent: { encode: renderAgent },
  deleteAgent: {},
  suspendAgent: { encode: renderAgent },
  activateAgent: { encode: renderAgent },

  createCardCredentials: { encode: renderCredentials },
  createIntent: { encode: renderIntent },
  listIntents: { encode: renderList(renderIntent) },
  getIntent: { encode: renderIntent },
  approveIntent: { encode: renderIntent },
  rejectIntent: { encode: renderIntent },
  listTransactions: { encode: renderList(renderTransaction) },
  getTransaction: { encode: renderTransaction },
  evaluateSpend: {},
  getRiskSettings: {},
  createPaymentToken: { encode: renderPaymentToken },
  listPaymentTokens: { encode: renderList(renderPaymentToken) },
  getPaymentToken: { encode: renderPaymentToken },
  revokePaymentToken: { encode: renderPaymentToken },
  updateRiskSettings: {},
  createIntentMandate: { encode: renderIntentMandate },
  getCustomerMandateIssuers: { encode: renderMandateIssuers },
  updateCustomerMandateIssuers: { encode: renderMandateIssuers },
  getReceiptKeys: {},
  rotateReceiptKeys: {},

  deleteWebhook: {},
  listWebhookDeliveries: { encode: renderList(renderDelivery) },
  retryWebhookDelivery: { encode: renderDelivery },
  resendWebhookEvent: { encode: renderDelivery },

  createApiKey: { encode: renderCreatedApiKey },
  listApiKeys: { encode: renderList(renderApiKey) },
  revokeApiKey: { encode: renderApiKey },

  getWithdrawal: { encode: renderWithdrawal },
  simulateAuthorization: { encode: renderTransaction },
  simulateSettlement: { encode: renderTransaction },
  simulateReversal: { encode: renderTransaction },
  simulateDispute: { encode: renderDispute },
  simulateDisputeResolution: { encode: renderDispute },
  simulateDeposit: { encode: renderDeposit },
  simulateWithdrawalConfirmation: { encode: renderWithdrawal },
  simulateWithdrawalFailure: { encode: renderWithdrawal },
  simulateKyc: { encode: renderKyc },
  getClock: { encode: renderClock },
  advanceClock: { encode: renderAdvancedClock },
} satisfies Partial<CodecTable<'customer', Record<never, never>>>;

/** The events operations of a variant: a `type` filter in the variant's names, each event in its envelope. */
export function eventOperations<V extends Variant, Envelope>(variant: V, envelopeOf: (event: AnyStoredEvent) => Envelope) {
  return {
    listEvents: {
      decode: <Wire extends { params: NoParameters; query: { limit?: number; cursor?: string; type?: string }; body: undefined }>(
        wire: Wire,
      ) => ({
        params: wire.params,
        body: wire.body,
        query: {
          ...wire.query,
          type: wire.query.type === undefined ? undefined : eventNaming.storedTypeOf(variant, wire.query.type),
        },
      }),
      encode: renderList(envelopeOf),
    },
    getEvent: { encode: envelopeOf },
  };
}

/**
 * The webhook operations of a variant: the event types a subscription names are decoded from the variant's names
 * into stored types, and rendered back in the reading variant's names (a webhook reads the same through both).
 */
export function webhookOperations<V extends Variant>(variant: V) {
  const names = (types: WebhookRecord['events']) => eventTypeNames(variant, types);
  const decodeEvents = <Body extends { events?: string[] }>(body: Body) =>
    body.events === undefined ? { ...body, events: undefined } : { ...body, events: storedEventTypes(variant, body.events) };
  return {
    createWebhook: {
      decode: <
        Wire extends { params: NoParameters; query: NoParameters; body: { url: string; events: string[]; description?: string } },
      >(
        wire: Wire,
      ) => ({
        params: wire.params,
        query: wire.query,
        body: { ...wire.body, events: storedEventTypes(variant, wire.body.events) },
      }),
      encode: (webhook: WebhookRecord) => renderWebhookWithSecret(webhook, names),
    },
    listWebhooks: { encode: renderList((webhook: WebhookRecord) => renderWebhook(webhook, names)) },
    getWebhook: { encode: (webhook: WebhookRecord) => renderWebhook(webhook, names) },
    updateWebhook: {
      decode: <Wire extends { params: { webhookId: string }; query: NoParameters; body: { events?: string[] } }>(wire: Wire) => ({
        params: wire.params,
        query: wire.query,
        body: decodeEvents(wire.body),
      }),
      encode: (webhook: WebhookRecord) => renderWebhook(webhook, names),
    },
    rotateWebhookSecret: { encode: (webhook: WebhookRecord) => renderWebhookWithSecret(webhook, names) },
  };
}

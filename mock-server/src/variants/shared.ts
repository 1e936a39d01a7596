import type { CodecTable } from './codec.js';
import { renderList } from './render/list.js';
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
  updateRiskSettings: {},

  createWebhook: { encode: renderWebhookWithSecret },
  listWebhooks: { encode: renderList(renderWebhook) },
  getWebhook: { encode: renderWebhook },
  updateWebhook: { encode: renderWebhook },
  deleteWebhook: {},
  rotateWebhookSecret: { encode: renderWebhookWithSecret },
  listWebhookDeliveries: { encode: renderList(renderDelivery) },
  retryWebhookDelivery: { encode: renderDelivery },

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
  advanceClock: { encode: renderClock },
} satisfies Partial<CodecTable<'customer', Record<never, never>>>;

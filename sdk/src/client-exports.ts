// The API client's exports, shared by the package root's two builds (index.ts and index.node.ts).
export { Cardrail } from './cardrail.js';
export { CardrailUsers } from './cardrail-users.js';
export type { CardrailClient } from './cardrail-client.js';
export * from './errors.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { Page, PagePromise, type ListEnvelope, type ToArrayOptions } from './core/pagination.js';
export { DEFAULT_BASE_URL, type ClientOptions, type RequestOptions } from './core/client-options.js';
export type { LogLevel, Logger } from './core/logger.js';
export type { Mode } from './core/api-key.js';
export type { FetchLike } from './core/client-options.js';
export type {
  BodyArgs,
  HttpMethod,
  ListItem,
  Operation,
  QueryArgs,
  QueryParams,
  RequestBody,
  ResponseBody,
} from './core/operation-types.js';
export type { ByVariant, CustomerPaths, UserPaths, VariantPaths } from './resources/variant-paths.js';
export type { CustomerApi, UserApi } from '@cardrail/spec';
export type { Customers, Owners, Users } from './resources/owners.js';
export type { Agents } from './resources/agents.js';
export type { Cards } from './resources/cards.js';
export type { Intents } from './resources/intents.js';
export type { PaymentTokens } from './resources/payment-tokens.js';
export type { Payments, PaymentFetchOptions, PaymentResult } from './payments/payments.js';
export type { CardChallenge } from './payments/card-challenge.js';
export type { MandateForPayment, MandatePayment } from './payments/mandate-for-payment.js';
export type { PaymentReceipt } from './payments/payment-receipt.js';
export { PaymentChallengeError, type PaymentChallengeErrorCode } from './payments/payment-errors.js';
export {
  delegatePaymentRequest,
  type AcpAddress,
  type AcpAllowanceBody,
  type AcpTokenPaymentMethod,
  type AcpDelegatePaymentRequest,
  type AcpRiskSignal,
  type DelegatePaymentOptions,
} from './payments/acp-delegate-payment.js';
export type { Mandates } from './resources/mandates.js';
export { type OpenMandateHash, openMandateHash } from './mandates/open-mandate-hash.js';
export {
  type CardrailPaymentReceipt,
  type ReceiptKeySet,
  type VerifiedPaymentReceipt,
  type VerifyPaymentReceiptOptions,
  verifyPaymentReceipt,
} from './mandates/payment-receipt.js';
// Every AP2 type, the constraints and variants the mandates and the receipt are made of included.
export type * from './generated/ap2.js';
export { DecisionTimeoutError, type WaitForDecisionOptions } from './resources/intent-decision.js';
export type { Transactions } from './resources/transactions.js';
export type { Spend } from './resources/spend.js';
export type { Settings, RiskSettings } from './resources/settings.js';
export type { Webhooks, WebhookDeliveries } from './resources/webhooks.js';
export type { Events } from './resources/events.js';
export type { ApiKeys } from './resources/api-keys.js';
export type { Withdrawals } from './resources/withdrawals.js';
export type { Simulate, SimulatedClock } from './resources/simulate.js';
export type * from './generated/api-names.js';

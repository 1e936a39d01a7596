import type { CardrailEventType, CustomerWebhookEventType, UserWebhookEventType } from './cardrail-event.js';

/**
 * Every event type at run time (the generated files hold types only). The checks below make the compiler reject this
 * list as soon as it misses a type of the spec or names one the spec does not have.
 */
export const CARDRAIL_EVENT_TYPES = [
  'agent.activated',
  'agent.auto_suspended',
  'agent.created',
  'agent.limit_approaching',
  'agent.limit_exceeded',
  'agent.suspended',
  'anomaly.cooldown',
  'anomaly.duplicate',
  'anomaly.intent_mismatch',
  'anomaly.merchant_drift',
  'anomaly.spend_spike',
  'anomaly.unattested',
  'anomaly.velocity',
  'card.auto_frozen',
  'card.closed',
  'card.created',
  'card.expired',
  'card.frozen',
  'card.merchant_drift',
  'challenge.requested',
  'credential.accessed',
  'deposit.address_ready',
  'deposit.received',
  'dispute.created',
  'dispute.resolved',
  'intent.approved',
  'intent.created',
  'intent.expired',
  'intent.matched',
  'intent.mismatched',
  'intent.pending_approval',
  'intent.rejected',
  'spend.attested',
  'spend.unattested',
  'transaction.authorized',
  'transaction.completed',
  'transaction.created',
  'transaction.declined',
  'transaction.reversed',
  'transaction.settled',
  'user.application.approved',
  'user.application.denied',
  'user.application.needs_info',
  'user.balance.updated',
  'user.created',
  'user.deleted',
  'user.updated',
  'verification.initiated',
  'withdrawal.confirmed',
  'withdrawal.failed',
  'withdrawal.submitted',
] as const satisfies readonly CardrailEventType[];

type Listed = (typeof CARDRAIL_EVENT_TYPES)[number];
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const listsEveryEventType: Exact<Listed, CardrailEventType> = true;
const unionsMatchWebhooks: Exact<CardrailEventType, CustomerWebhookEventType | UserWebhookEventType> = true;
void listsEveryEventType;
void unionsMatchWebhooks;

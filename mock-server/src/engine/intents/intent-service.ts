import type { ApiKeyRecord } from '../../core/directory.js';
import { HttpError, invalidState, notFound } from '../../core/errors.js';
import { loadCardScope } from '../card-scope.js';
import type { Tenant } from '../../core/tenant.js';
import { engineState } from '../engine-state.js';
import { intents } from '../records.js';
import {
  intentApprovedData,
  intentCreatedData,
  intentExpiredData,
  intentPendingApprovalData,
  intentRejectedData,
} from './intent-events.js';
import { type ApprovalPage, NO_APPROVAL_PAGE } from './approval-page.js';
import { DEFAULT_INTENT_TTL_MINUTES, DEFAULT_TOLERANCE, type IntentRecord } from './intent-record.js';

export interface IntentCreateRequest {
  cardId: string;
  summary: string;
  expectedAmount: number;
  currency?: string | undefined;
  expectedMerchant?: string | undefined;
  customerIntentId?: string | undefined;
  ttlMinutes?: number | undefined;
  tolerance?: { percent?: number | undefined; amount?: number | undefined } | undefined;
}

const MINUTE_MS = 60_000;

/**
 * Declares an intent: `pending_approval` when the card's merged policy requires approval and the amount is not
 * below `autoApproveBelow`, `pending` otherwise. Emits `intent.created` (general catalog only) and, when approval is
 * needed, `intent.pending_approval`; its expiry is scheduled on the test clock. Its `approvalUrl` is the page
 * `approvalPage` names for it, fixed when it is declared.
 */
export function createIntent(
  tenant: Tenant,
  request: IntentCreateRequest,
  approvalPage: ApprovalPage = NO_APPROVAL_PAGE,
): IntentRecord {
  const scope = loadCardScope(tenant, request.cardId);
  if (scope.card.status !== 'active') {
    throw new HttpError(400, 'card_not_active', `The card is ${scope.card.status}; intents need an active card.`, {
      cardId: scope.card.id,
      status: scope.card.status,
    });
  }
  const now = tenant.now();
  const { policy } = scope;
  const autoApproved = policy.autoApproveBelow !== undefined && request.expectedAmount < policy.autoApproveBelow;
  const needsApproval = policy.requireApproval === true && !autoApproved;
  const ttlMinutes = request.ttlMinutes ?? DEFAULT_INTENT_TTL_MINUTES;
  const id = tenant.ids.next('intent');
  const intent: IntentRecord = {
    id,
    customerIntentId: request.customerIntentId ?? null,
    cardId: scope.card.id,
    agentId: scope.card.agentId,
    customerId: scope.card.customerId,
    summary: request.summary,
    expectedAmount: request.expectedAmount,
    currency: (request.currency ?? 'usd').toLowerCase(),
    expectedMerchant: request.expectedMerchant ?? null,
    tolerance: {
      percent: request.tolerance?.percent ?? DEFAULT_TOLERANCE.percent,
      amount: request.tolerance?.amount ?? DEFAULT_TOLERANCE.amount,
    },
    status: needsApproval ? 'pending_approval' : 'pending',
    ttlMinutes,
    expiresAt: now + ttlMinutes * MINUTE_MS,
    createdAt: now,
    approvedAt: null,
    approvedBy: null,
    rejectedAt: null,
    rejectedBy: null,
    rejectionReason: null,
    decidedBy: null,
    matchedTransactionId: null,
    approvalUrl: approvalPage(id),
  };
  intents.of(tenant).insert(intent);
  engineState(tenant).openIntents(intent.cardId).set(intent.id, intent);
  tenant.emit('intent.created', intentCreatedData(intent, needsApproval ? 'pending_approval' : 'pending'));
  if (needsApproval) tenant.emit('intent.pending_approval', intentPendingApprovalData(intent));
  scheduleIntentExpiry(tenant, intent);
  return intent;
}

function scheduleIntentExpiry(tenant: Tenant, intent: IntentRecord): void {
  tenant.scheduler.schedule(intent.expiresAt, () => expireIntent(tenant, intent.id), `intent expiry ${intent.id}`);
}

/** After a restore: every intent still open gets its expiry scheduled again. */
export function rescheduleIntentExpiries(tenant: Tenant): void {
  for (const [, intent] of intents.of(tenant).entries()) {
    if (intent.status === 'pending' || intent.status === 'pending_approval') scheduleIntentExpiry(tenant, intent);
  }
}

export function getIntent(tenant: Tenant, intentId: string): IntentRecord {
  const intent = intents.of(tenant).get(intentId);
  if (!intent) throw notFound();
  return intent;
}

/** Who is deciding, as an approve or reject request names them (`IntentDecidedBy`), and the key of the request. */
export interface IntentDecisionBy {
  decidedBy?: { name?: string | undefined; via?: string | undefined } | undefined;
  apiKey: Pick<ApiKeyRecord, 'id' | 'name' | 'redactedKey'>;
}

/** The intent's `decidedBy`: the person and the place as the request named them, and the key it was made with. */
function deciderOf(by: IntentDecisionBy): NonNullable<IntentRecord['decidedBy']> {
  return {
    name: by.decidedBy?.name ?? null,
    via: by.decidedBy?.via ?? null,
    apiKey: { id: by.apiKey.id, name: by.apiKey.name, redactedKey: by.apiKey.redactedKey },
  };
}

/** `pending_approval` -> `pending` (`intent.approved`); the agent may now retrieve credentials and spend. */
export function approveIntent(tenant: Tenant, intentId: string, by: IntentDecisionBy): IntentRecord {
  const updated = decidePendingApproval(tenant, intentId, (record, now) => {
    record.status = 'pending';
    record.approvedAt = now;
    record.approvedBy = 'api';
    record.decidedBy = deciderOf(by);
  });
  tenant.emit('intent.approved', intentApprovedData(updated, tenant.now(), 'api'));
  return updated;
}

/** `pending_approval` -> `rejected` (`intent.rejected`); the intent can no longer be used. */
export function rejectIntent(tenant: Tenant, intentId: string, reason: string | undefined, by: IntentDecisionBy): IntentRecord {
  const updated = decidePendingApproval(tenant, intentId, (record, now) => {
    record.status = 'rejected';
    record.rejectedAt = now;
    record.rejectedBy = 'api';
    record.rejectionReason = reason ?? null;
    record.decidedBy = deciderOf(by);
  });
  engineState(tenant).openIntents(updated.cardId).delete(updated.id);
  tenant.emit('intent.rejected', intentRejectedData(updated, tenant.now(), 'api'));
  return updated;
}

/** The intent's TTL passed without a matching authorization: `expired` (`intent.expired`). */
function expireIntent(tenant: Tenant, intentId: string): void {
  const intent = intents.of(tenant).get(intentId);
  if (!intent || (intent.status !== 'pending' && intent.status !== 'pending_approval')) return;
  const now = tenant.now();
  intents.of(tenant).update(intent.id, (record) => {
    record.status = 'expired';
  });
  engineState(tenant).openIntents(intent.cardId).delete(intent.id);
  tenant.emit('intent.expired', intentExpiredData(intent, now));
}

/** Applies an approval decision to an intent `pending_approval` (400 invalid_state in any other status). */
function decidePendingApproval(
  tenant: Tenant,
  intentId: string,
  decide: (record: IntentRecord, now: number) => void,
): IntentRecord {
  const intent = getIntent(tenant, intentId);
  if (intent.status !== 'pending_approval') {
    throw invalidState(`The intent is ${intent.status}; only an intent pending approval can be approved or rejected.`, {
      intentId: intent.id,
      status: intent.status,
    });
  }
  const now = tenant.now();
  intents.of(tenant).update(intent.id, (record) => decide(record, now));
  return intent;
}

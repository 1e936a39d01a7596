import type { ScheduledHandle } from '../core/scheduler.js';
import { defineTenantState, type Tenant } from '../core/tenant.js';
import type { AnyStoredEvent } from '../core/event-types.js';
import { deliveries, messageIdOf, type WebhookRecord, webhooks } from './records.js';
import { type AttemptOutcome, succeeded } from './send-attempt.js';

/** The scheduled next automatic attempt of each pending delivery: working state, rebuilt from the records. */
export const pendingAttempts = defineTenantState('webhooks.pendingAttempts', () => new Map<string, ScheduledHandle>());

/** An attempt's outcome added to its delivery record. */
export function recordAttempt(tenant: Tenant, deliveryId: string, automatic: boolean, outcome: AttemptOutcome): void {
  deliveries.of(tenant).update(deliveryId, (record) => {
    // Counted once the attempt has an outcome: one cut short by a crash or shutdown is made again after restart.
    if (automatic) record.automaticAttempts++;
    record.attempts.push({
      attempt: record.attempts.length + 1,
      attemptedAt: outcome.attemptedAt,
      outcome: succeeded(outcome) ? 'succeeded' : 'failed',
      responseStatus: outcome.responseStatus,
      error: outcome.error,
      durationMs: outcome.durationMs,
    });
  });
}

/** Ends the delivery's schedule with a final status. */
export function settleDelivery(tenant: Tenant, deliveryId: string, status: 'succeeded' | 'failed'): void {
  const handles = pendingAttempts.of(tenant);
  handles.get(deliveryId)?.cancel();
  handles.delete(deliveryId);
  deliveries.of(tenant).update(deliveryId, (record) => {
    record.status = status;
    record.nextAttemptAt = null;
  });
}

/** What an attempt sends: the webhook, the event and the message id (`webhook-id`), as they stood when it was planned. */
export interface AttemptPlan {
  webhook: WebhookRecord;
  event: AnyStoredEvent;
  messageId: string;
}

/**
 * What an attempt sends, or undefined when it ends now without a POST (recorded as failed when it must be): `refusal`
 * says why the URL policy refuses a URL now, or null.
 */
export function planAttempt(
  tenant: Tenant,
  deliveryId: string,
  automatic: boolean,
  refusal: (url: string) => string | null,
): AttemptPlan | undefined {
  const delivery = deliveries.of(tenant).get(deliveryId);
  // Dropped meanwhile (retention): nothing to send.
  if (!delivery) return undefined;
  const webhook = webhooks.of(tenant).get(delivery.webhookId);
  if (!webhook) {
    // Deleted meanwhile: its deliveries are gone from the API, nothing is sent.
    settleDelivery(tenant, deliveryId, 'failed');
    return undefined;
  }
  const event = tenant.events.get(delivery.eventId);
  const refused = refusal(webhook.url);
  if (!event || webhook.status !== 'active' || refused) {
    // A webhook disabled while a delivery waits: the event is recorded as failed (a manual retry can still send
    // it once the webhook is active again), never silently dropped. The same for a URL the policy refuses now
    // (a state restored with fewer hosts allowed) and an event past retention.
    const error = !event ? 'event no longer available' : webhook.status !== 'active' ? 'webhook is disabled' : refused;
    recordAttempt(tenant, deliveryId, automatic, { attemptedAt: tenant.now(), responseStatus: null, error, durationMs: 0 });
    settleDelivery(tenant, deliveryId, 'failed');
    return undefined;
  }
  return { webhook, event, messageId: messageIdOf(delivery) };
}

import type { EpochMs } from '../core/clock.js';
import type { ApiSchemas, Stored } from '../core/stored.js';
import type { StoredEventType } from '../core/event-types.js';
import { EVENT_RETENTION_MS } from '../core/event-log.js';
import { defineCollection } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';

/** A signing secret; the one replaced by a rotation keeps signing until `retiresAt`. */
interface SigningSecret {
  value: string;
  retiresAt: EpochMs | null;
}

export type WebhookRecord = Omit<Stored<ApiSchemas['Webhook']>, 'events' | 'standardWebhooks'> & {
  /** The subscribed event types as stored (neutral names), or `*`; each variant renders its own names. */
  events: (StoredEventType | '*')[];
  /** Whether deliveries carry the Standard Webhooks headers; absent in records stored before it existed (true). */
  standardWebhooks?: boolean;
  /** The variant the subscription was created through; it decides the envelope and type names delivered. */
  variant: Variant;
  /** Newest first. */
  secrets: SigningSecret[];
};

type DeliveryAttemptRecord = Stored<ApiSchemas['DeliveryAttempt']>;

export type DeliveryRecord = Omit<Stored<ApiSchemas['WebhookDelivery']>, 'attempts' | 'messageId'> & {
  attempts: DeliveryAttemptRecord[];
  /** Automatic attempts made so far (manual retries not counted), out of RETRY_DELAYS_MS.length. */
  automaticAttempts: number;
  /**
   * The `webhook-id` every attempt carries: the id of the event's first delivery to the webhook, stored on each
   * delivery so that whoever makes an attempt (this process after a restart, or another one sharing the store) sends
   * the same one. Absent in records stored before it existed, whose `webhook-id` was their own id (messageIdOf).
   */
  messageId?: string;
};

export const webhooks = defineCollection<WebhookRecord>('webhooks', {
  filters: { status: (webhook) => webhook.status },
});

/** Delivery records are kept as long as events: 30 days of the tenant's test clock (docs/webhooks.md#delivery-records). */
export const deliveries = defineCollection<DeliveryRecord>('webhookDeliveries', {
  filters: { webhookId: (delivery) => delivery.webhookId },
  retention: { ms: EVENT_RETENTION_MS, at: (delivery) => delivery.createdAt },
});

/** Delays before attempts 1 to 5, each measured from the previous attempt (docs/webhooks.md#acknowledging-retries). */
export const RETRY_DELAYS_MS = [0, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000, 24 * 60 * 60_000] as const;

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60_000;

/** How long a receiver has to answer before the attempt counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** The Standard Webhooks message id (`webhook-id`) of a delivery's attempts. */
export function messageIdOf(delivery: DeliveryRecord): string {
  return delivery.messageId ?? delivery.id;
}

/** Whether the webhook's deliveries carry the Standard Webhooks headers beside Cardrail-Signature. */
export function sendsStandardWebhooks(webhook: WebhookRecord): boolean {
  return webhook.standardWebhooks !== false;
}

/** The secrets that sign a delivery made at `now`, newest first. */
export function activeSecrets(webhook: WebhookRecord, now: EpochMs): string[] {
  return webhook.secrets.filter((s) => s.retiresAt === null || s.retiresAt > now).map((s) => s.value);
}

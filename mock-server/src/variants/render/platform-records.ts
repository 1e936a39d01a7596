import { toIso, toIsoOrNull, type OffsetClock } from '../../core/clock.js';
import type { ApiKeyRecord } from '../../core/directory.js';
import type { ApiSchemas } from '../../core/stored.js';
import type { AgentRecord } from '../../domain/agents.js';
import type { BalanceRecord } from '../../domain/balances.js';
import type { CustomerRecord } from '../../domain/customers.js';
import { type DeliveryRecord, messageIdOf, sendsStandardWebhooks, type WebhookRecord } from '../../webhooks/records.js';

/** The platform's records as the spec's response schemas shared by both variants: timestamps in ISO 8601. */
export function renderCustomer(customer: CustomerRecord): ApiSchemas['Customer'] {
  return {
    id: customer.id,
    type: customer.type,
    status: customer.status,
    email: customer.email,
    phone: customer.phone,
    name: customer.name,
    policy: customer.policy,
    metadata: customer.metadata,
    kycStatus: customer.kycStatus,
    depositAddress: customer.depositAddress,
    createdAt: toIso(customer.createdAt),
  };
}

export function renderBalance(balance: BalanceRecord): ApiSchemas['Balance'] {
  return {
    currency: balance.currency,
    available: balance.available,
    pending: balance.pending,
    posted: balance.posted,
    limit: balance.limit,
    updatedAt: toIso(balance.updatedAt),
  };
}

export function renderAgent(agent: AgentRecord): ApiSchemas['Agent'] {
  return {
    id: agent.id,
    name: agent.name,
    status: agent.status,
    customerId: agent.customerId,
    externalId: agent.externalId,
    limits: agent.limits,
    policy: agent.policy,
    metadata: agent.metadata,
    createdAt: toIso(agent.createdAt),
  };
}

/** A webhook as the reading variant names its event types (`names`: that variant's names of stored types). */
export function renderWebhook<EventName extends string>(
  webhook: WebhookRecord,
  names: (types: WebhookRecord['events']) => EventName[],
) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: names(webhook.events),
    description: webhook.description,
    status: webhook.status,
    standardWebhooks: sendsStandardWebhooks(webhook),
    createdAt: toIso(webhook.createdAt),
  };
}

/** The create and rotate answers: the current secret, shown this once. */
export function renderWebhookWithSecret<EventName extends string>(
  webhook: WebhookRecord,
  names: (types: WebhookRecord['events']) => EventName[],
) {
  const [current] = webhook.secrets;
  if (!current) throw new Error(`Webhook ${webhook.id} has no signing secret.`);
  return { ...renderWebhook(webhook, names), secret: current.value };
}

export function renderDelivery(delivery: DeliveryRecord): ApiSchemas['WebhookDelivery'] {
  return {
    id: delivery.id,
    messageId: messageIdOf(delivery),
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, attemptedAt: toIso(attempt.attemptedAt) })),
    nextAttemptAt: delivery.status === 'pending' ? toIsoOrNull(delivery.nextAttemptAt) : null,
    createdAt: toIso(delivery.createdAt),
  };
}

export function renderApiKey(record: ApiKeyRecord): ApiSchemas['ApiKey'] {
  return {
    id: record.id,
    name: record.name,
    mode: record.mode,
    redactedKey: record.redactedKey,
    status: record.revokedAt === null ? 'active' : 'revoked',
    createdAt: toIso(record.createdAt),
    revokedAt: toIsoOrNull(record.revokedAt),
  };
}

/** A new key: the key string is in this answer only. */
export function renderCreatedApiKey(created: { record: ApiKeyRecord; key: string }): ApiSchemas['ApiKeyWithSecret'] {
  return { ...renderApiKey(created.record), key: created.key };
}

export function renderClock(clock: OffsetClock): ApiSchemas['Clock'] {
  return { now: toIso(clock.now()), frozen: clock.frozen, offsetSeconds: Math.floor(clock.offsetMs / 1000) };
}

/** An advance's answer: the clock, and the deliveries it stopped waiting for, when there are any. */
export function renderAdvancedClock(advanced: { clock: OffsetClock; pendingDeliveries: string[] }): ApiSchemas['Clock'] {
  const clock = renderClock(advanced.clock);
  return advanced.pendingDeliveries.length === 0 ? clock : { ...clock, pendingDeliveries: advanced.pendingDeliveries };
}

import { toIso } from '../core/clock.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import { invalidRequest, notFound } from '../core/errors.js';
import type { HandlerMap, OperationContext } from '../http/operation-handler.js';
import {
  deliveries,
  SECRET_OVERLAP_MS,
  webhooks,
  type DeliveryRecord,
  type WebhookRecord,
} from '../webhooks/records.js';
import { subscriptionIndex } from '../webhooks/subscription-index.js';
import type { EventNaming } from '../events/naming.js';
import { listPage } from './pagination.js';

function renderWebhook(webhook: WebhookRecord): Record<string, unknown> {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    description: webhook.description,
    status: webhook.status,
    createdAt: toIso(webhook.createdAt),
  };
}

/** The create and rotate answers: the current secret, shown this once. */
function renderWithSecret(webhook: WebhookRecord): Record<string, unknown> {
  return { ...renderWebhook(webhook), secret: webhook.secrets[0]?.value };
}

export function renderDelivery(delivery: DeliveryRecord): Record<string, unknown> {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, attemptedAt: toIso(attempt.attemptedAt) })),
    nextAttemptAt: delivery.nextAttemptAt === null || delivery.status !== 'pending' ? null : toIso(delivery.nextAttemptAt),
    createdAt: toIso(delivery.createdAt),
  };
}

function requireWebhook(tenant: Tenant, id: string): WebhookRecord {
  const webhook = webhooks.of(tenant).get(id);
  if (!webhook) throw notFound();
  return webhook;
}

/** Every listed type must be an event type of the caller's variant (as named there), or `*`. */
function checkEventTypes(naming: EventNaming, variant: Variant, types: string[]): void {
  const known = naming.typesOf(variant);
  types.forEach((type, index) => {
    if (type !== '*' && !known.has(type)) {
      throw invalidRequest(`/body/events/${index}`, `is not an event type of the ${variant} variant: ${type}`);
    }
  });
}

export function webhookHandlers(naming: EventNaming): HandlerMap {
  return {
    createWebhook: (ctx: OperationContext) => {
      checkEventTypes(naming, ctx.variant, ctx.body.events);
      const webhook = webhooks.of(ctx.tenant).insert({
        id: ctx.tenant.ids.next('webhook'),
        url: ctx.body.url,
        events: ctx.body.events,
        description: ctx.body.description ?? null,
        status: 'active',
        variant: ctx.variant,
        secrets: [{ value: ctx.tenant.ids.webhookSecret(), retiresAt: null }],
        createdAt: ctx.tenant.now(),
      });
      subscriptionIndex(ctx.tenant).set(webhook);
      return { body: renderWithSecret(webhook) };
    },
    listWebhooks: (ctx) => ({ body: listPage(webhooks.of(ctx.tenant), ctx.query, renderWebhook) }),
    getWebhook: (ctx) => ({ body: renderWebhook(requireWebhook(ctx.tenant, ctx.params.webhookId as string)) }),
    updateWebhook: (ctx) => {
      const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId as string);
      if (ctx.body.events !== undefined) checkEventTypes(naming, webhook.variant, ctx.body.events);
      webhooks.of(ctx.tenant).update(webhook.id, (record) => {
        if (ctx.body.url !== undefined) record.url = ctx.body.url;
        if (ctx.body.events !== undefined) record.events = ctx.body.events;
        if (ctx.body.description !== undefined) record.description = ctx.body.description;
        if (ctx.body.status !== undefined) record.status = ctx.body.status;
      });
      subscriptionIndex(ctx.tenant).set(webhook);
      return { body: renderWebhook(webhook) };
    },
    deleteWebhook: (ctx) => {
      const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId as string);
      ctx.services.webhooks.forget(ctx.tenant, webhook.id);
      webhooks.of(ctx.tenant).delete(webhook.id);
      return { body: { id: webhook.id, deleted: true } };
    },
    rotateWebhookSecret: (ctx) => {
      const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId as string);
      const now = ctx.tenant.now();
      webhooks.of(ctx.tenant).update(webhook.id, (record) => {
        // The replaced secret keeps signing beside the new one for 24 hours; older ones retire as planned.
        const kept = record.secrets
          .filter((secret) => secret.retiresAt === null || secret.retiresAt > now)
          .map((secret) => ({ value: secret.value, retiresAt: secret.retiresAt ?? now + SECRET_OVERLAP_MS }));
        record.secrets = [{ value: ctx.tenant.ids.webhookSecret(), retiresAt: null }, ...kept];
      });
      return { body: renderWithSecret(webhook) };
    },
    listWebhookDeliveries: (ctx) => {
      const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId as string);
      return { body: listPage(deliveries.of(ctx.tenant), ctx.query, renderDelivery, { webhookId: webhook.id }) };
    },
    retryWebhookDelivery: async (ctx) => {
      const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId as string);
      const delivery = deliveries.of(ctx.tenant).get(ctx.params.deliveryId as string);
      if (!delivery || delivery.webhookId !== webhook.id) throw notFound();
      await ctx.services.webhooks.retry(ctx.tenant, delivery);
      return { body: renderDelivery(delivery) };
    },
  };
}

import { invalidRequest, notFound } from '../core/errors.js';
import type { StoredEventType } from '../core/event-types.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import type { NeutralHandlers } from '../operations/neutral.js';
import type { EventNaming } from '../core/event-naming.js';
import { deliveries, SECRET_OVERLAP_MS, webhooks, type WebhookRecord } from '../webhooks/records.js';
import { subscriptionIndex } from '../webhooks/subscription-index.js';
import { listPage } from '../core/list-page.js';

function requireWebhook(tenant: Tenant, id: string): WebhookRecord {
  const webhook = webhooks.of(tenant).get(id);
  if (!webhook) throw notFound();
  return webhook;
}

/**
 * A webhook receives the envelope and names of the variant it was created through, so every type it subscribes to
 * must be one that variant has (`intent.created` is the customer variant's only).
 */
function checkDeliverable(naming: EventNaming, variant: Variant, types: readonly (StoredEventType | '*')[]): void {
  types.forEach((type, index) => {
    if (type !== '*' && naming.nameIn(variant, type) === undefined) {
      throw invalidRequest(
        `/body/events/${index}`,
        `is not an event type of the ${variant} variant, which this webhook delivers in`,
      );
    }
  });
}

/**
 * A secret the caller chose (an extension, as Svix allows): the spec's pattern has checked `whsec_` and standard
 * base64; the bytes it encodes must number 24 to 64, as a Standard Webhooks key does.
 */
function ownSecret(secret: string): string {
  const bytes = atob(secret.slice('whsec_'.length)).length;
  if (bytes < 24 || bytes > 64) {
    throw invalidRequest(
      '/body/secret',
      `encodes ${bytes} bytes; a signing secret is whsec_ and the base64 of 24 to 64 random bytes`,
    );
  }
  return secret;
}

export const webhookHandlers = {
  createWebhook: (ctx) => {
    ctx.services.webhooks.checkUrl(ctx.body.url);
    checkDeliverable(ctx.services.naming, ctx.variant, ctx.body.events);
    const webhook = webhooks.of(ctx.tenant).insert({
      id: ctx.tenant.ids.next('webhook'),
      url: ctx.body.url,
      events: ctx.body.events,
      description: ctx.body.description ?? null,
      status: 'active',
      standardWebhooks: ctx.body.standardWebhooks ?? true,
      variant: ctx.variant,
      secrets: [
        { value: ctx.body.secret === undefined ? ctx.tenant.ids.webhookSecret() : ownSecret(ctx.body.secret), retiresAt: null },
      ],
      createdAt: ctx.tenant.now(),
    });
    subscriptionIndex(ctx.tenant).set(webhook);
    return webhook;
  },
  listWebhooks: (ctx) => listPage(webhooks.of(ctx.tenant), ctx.query),
  getWebhook: (ctx) => requireWebhook(ctx.tenant, ctx.params.webhookId),
  updateWebhook: (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    const { body } = ctx;
    if (body.url !== undefined) ctx.services.webhooks.checkUrl(body.url);
    if (body.events !== undefined) checkDeliverable(ctx.services.naming, webhook.variant, body.events);
    webhooks.of(ctx.tenant).update(webhook.id, (record) => {
      if (body.url !== undefined) record.url = body.url;
      if (body.events !== undefined) record.events = body.events;
      if (body.description !== undefined) record.description = body.description;
      if (body.status !== undefined) record.status = body.status;
      if (body.standardWebhooks !== undefined) record.standardWebhooks = body.standardWebhooks;
    });
    subscriptionIndex(ctx.tenant).set(webhook);
    return webhook;
  },
  deleteWebhook: (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    ctx.services.webhooks.forget(ctx.tenant, webhook.id);
    webhooks.of(ctx.tenant).delete(webhook.id);
    return { id: webhook.id, deleted: true as const };
  },
  rotateWebhookSecret: (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    const now = ctx.tenant.now();
    webhooks.of(ctx.tenant).update(webhook.id, (record) => {
      // The replaced secret keeps signing beside the new one for 24 hours; older ones retire as planned.
      const kept = record.secrets
        .filter((secret) => secret.retiresAt === null || secret.retiresAt > now)
        .map((secret) => ({ value: secret.value, retiresAt: secret.retiresAt ?? now + SECRET_OVERLAP_MS }));
      record.secrets = [{ value: ctx.tenant.ids.webhookSecret(), retiresAt: null }, ...kept];
    });
    return webhook;
  },
  listWebhookDeliveries: (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    return listPage(deliveries.of(ctx.tenant), ctx.query, { webhookId: webhook.id });
  },
  retryWebhookDelivery: async (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    const delivery = deliveries.of(ctx.tenant).get(ctx.params.deliveryId);
    if (!delivery || delivery.webhookId !== webhook.id) throw notFound();
    return ctx.services.webhooks.retry(ctx.tenant, delivery);
  },
  resendWebhookEvent: async (ctx) => {
    const webhook = requireWebhook(ctx.tenant, ctx.params.webhookId);
    // The tenant's own events only: another organization's or mode's, or one past retention, is not found.
    const event = ctx.tenant.events.get(ctx.params.eventId);
    if (!event) throw notFound();
    if (ctx.services.naming.nameIn(webhook.variant, event.type) === undefined) {
      throw invalidRequest(
        '/path/eventId',
        `is a ${event.type} event, which the ${webhook.variant} variant this webhook delivers in does not have`,
      );
    }
    return ctx.services.webhooks.resend(ctx.tenant, webhook, event);
  },
} satisfies Partial<NeutralHandlers>;

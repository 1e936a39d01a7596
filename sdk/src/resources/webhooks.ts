import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  Deleted,
  UserWebhook,
  UserWebhookCreateParams,
  UserWebhookUpdateParams,
  Webhook,
  WebhookCreateParams,
  WebhookDelivery,
  WebhookDeliveryListParams,
  WebhookListParams,
  WebhookUpdateParams,
  WebhookWithSecret,
} from '../generated/api-names.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/** Delivery attempts of one webhook subscription. */
export class WebhookDeliveries<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A page of delivery attempts of the subscription, newest first, with their status and response. */
  list(webhookId: string, query?: WebhookDeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return this.sendPage('/webhooks/{webhookId}/deliveries', { path: { webhookId }, query: queryOf(query) }, options);
  }

  /** Sends a failed delivery again (a fresh attempt, signed afresh, same event id). */
  retry(webhookId: string, deliveryId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    const path = { webhookId, deliveryId };
    return this.send('post', '/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { path }, options);
  }
}

/** Webhook subscriptions. Verify what they deliver with `verifySignature` or `constructEvent`. */
export class Webhooks<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Delivery attempts of a subscription: list them, retry a failed one. */
  readonly deliveries = new WebhookDeliveries(this.core);

  /** Subscribes a URL to event types. The response carries the signing `secret`, shown only here. */
  create(
    params: ByVariant<Paths, WebhookCreateParams, UserWebhookCreateParams>,
    options?: RequestOptions,
  ): APIPromise<WebhookWithSecret> {
    return this.send('post', '/webhooks', { body: params }, options);
  }

  /** The subscription with this id (without its secret). */
  retrieve(webhookId: string, options?: RequestOptions): APIPromise<ByVariant<Paths, Webhook, UserWebhook>> {
    return this.send('get', '/webhooks/{webhookId}', { path: { webhookId } }, options);
  }

  /** Changes the URL, the event types, the description or the status (`disabled` stops deliveries). */
  update(
    webhookId: string,
    params: ByVariant<Paths, WebhookUpdateParams, UserWebhookUpdateParams>,
    options?: RequestOptions,
  ): APIPromise<ByVariant<Paths, Webhook, UserWebhook>> {
    return this.send('patch', '/webhooks/{webhookId}', { path: { webhookId }, body: params }, options);
  }

  /** A page of subscriptions, newest first. */
  list(query?: WebhookListParams, options?: RequestOptions): PagePromise<ByVariant<Paths, Webhook, UserWebhook>> {
    return this.sendPage('/webhooks', { query: queryOf(query) }, options);
  }

  /** Deletes the subscription. */
  delete(webhookId: string, options?: RequestOptions): APIPromise<Deleted> {
    return this.send('delete', '/webhooks/{webhookId}', { path: { webhookId } }, options);
  }

  /** Issues a new signing secret; the old one keeps signing beside it for 24 hours. */
  rotateSecret(webhookId: string, options?: RequestOptions): APIPromise<WebhookWithSecret> {
    return this.send('post', '/webhooks/{webhookId}/rotate-secret', { path: { webhookId } }, options);
  }
}

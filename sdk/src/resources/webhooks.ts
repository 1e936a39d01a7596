import { APIResource } from '../core/api-resource.js';
import type { VariantPaths } from './variant-paths.js';

const byWebhookId = (webhookId: string) => ({ webhookId });

/** Delivery attempts of one webhook subscription. */
export class WebhookDeliveries<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A page of delivery attempts of the subscription, newest first, with their status and response. */
  readonly list = this.paged('/webhooks/{webhookId}/deliveries', byWebhookId);

  /** Sends a failed delivery again (a fresh attempt, signed afresh, same event id). */
  readonly retry = this.call(
    'post',
    '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    (webhookId: string, deliveryId: string) => ({
      webhookId,
      deliveryId,
    }),
  );
}

/** Webhook subscriptions. Verify what they deliver with `verifySignature` or `constructEvent`. */
export class Webhooks<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Delivery attempts of a subscription: list them, retry a failed one. */
  readonly deliveries = new WebhookDeliveries(this.core);

  /** Subscribes a URL to event types. The response carries the signing `secret`, shown only here. */
  readonly create = this.callWithBody('post', '/webhooks');

  /** The subscription with this id (without its secret). */
  readonly retrieve = this.call('get', '/webhooks/{webhookId}', byWebhookId);

  /** Changes the URL, the event types, the description or the status (`disabled` stops deliveries). */
  readonly update = this.callWithBody('patch', '/webhooks/{webhookId}', byWebhookId);

  /** A page of subscriptions, newest first. */
  readonly list = this.paged('/webhooks');

  /** Deletes the subscription. */
  readonly delete = this.call('delete', '/webhooks/{webhookId}', byWebhookId);

  /** Issues a new signing secret; the old one keeps signing beside it for 24 hours. */
  readonly rotateSecret = this.call('post', '/webhooks/{webhookId}/rotate-secret', byWebhookId);
}

import type { APIPromise } from '../core/api-promise.js';
import { APIResource } from '../core/api-resource.js';
import type { ClientCore } from '../core/client-core.js';
import type { RequestOptions } from '../core/client-options.js';
import type { BodyArgs, ListItem, Operation as Op, QueryArgs, ResponseBody } from '../core/operation-types.js';
import type { PagePromise } from '../core/pagination.js';
import type { VariantPaths } from './variant-paths.js';

/** Delivery attempts of one webhook subscription. */
export class WebhookDeliveries<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A page of delivery attempts of the subscription, newest first, with their status and response. */
  list(
    webhookId: string,
    ...[query, options]: QueryArgs<Op<Paths, '/webhooks/{webhookId}/deliveries', 'get'>>
  ): PagePromise<ListItem<Op<Paths, '/webhooks/{webhookId}/deliveries', 'get'>>> {
    return this.requestPage('/webhooks/{webhookId}/deliveries', { path: { webhookId }, query }, options);
  }

  /** Sends a failed delivery again (a fresh attempt, signed afresh, same event id). */
  retry(
    webhookId: string,
    deliveryId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/webhooks/{webhookId}/deliveries/{deliveryId}/retry', 'post'>>> {
    return this.request(
      'post',
      '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
      { path: { webhookId, deliveryId } },
      options,
    );
  }
}

/** Webhook subscriptions. Verify what they deliver with `verifySignature` or `constructEvent`. */
export class Webhooks<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Delivery attempts of a subscription: list them, retry a failed one. */
  readonly deliveries: WebhookDeliveries<Paths>;

  constructor(core: ClientCore<Paths>) {
    super(core);
    this.deliveries = new WebhookDeliveries(core);
  }

  /** Subscribes a URL to event types. The response carries the signing `secret`, shown only here. */
  create(...[body, options]: BodyArgs<Op<Paths, '/webhooks', 'post'>>): APIPromise<ResponseBody<Op<Paths, '/webhooks', 'post'>>> {
    return this.request('post', '/webhooks', { body }, options);
  }

  /** The subscription with this id (without its secret). */
  retrieve(webhookId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/webhooks/{webhookId}', 'get'>>> {
    return this.request('get', '/webhooks/{webhookId}', { path: { webhookId } }, options);
  }

  /** Changes the URL, the event types, the description or the status (`disabled` stops deliveries). */
  update(
    webhookId: string,
    ...[body, options]: BodyArgs<Op<Paths, '/webhooks/{webhookId}', 'patch'>>
  ): APIPromise<ResponseBody<Op<Paths, '/webhooks/{webhookId}', 'patch'>>> {
    return this.request('patch', '/webhooks/{webhookId}', { path: { webhookId }, body }, options);
  }

  /** A page of subscriptions, newest first. */
  list(...[query, options]: QueryArgs<Op<Paths, '/webhooks', 'get'>>): PagePromise<ListItem<Op<Paths, '/webhooks', 'get'>>> {
    return this.requestPage('/webhooks', { query }, options);
  }

  /** Deletes the subscription. */
  delete(webhookId: string, options?: RequestOptions): APIPromise<ResponseBody<Op<Paths, '/webhooks/{webhookId}', 'delete'>>> {
    return this.request('delete', '/webhooks/{webhookId}', { path: { webhookId } }, options);
  }

  /** Issues a new signing secret; the old one keeps signing beside it for 24 hours. */
  rotateSecret(
    webhookId: string,
    options?: RequestOptions,
  ): APIPromise<ResponseBody<Op<Paths, '/webhooks/{webhookId}/rotate-secret', 'post'>>> {
    return this.request('post', '/webhooks/{webhookId}/rotate-secret', { path: { webhookId } }, options);
  }
}

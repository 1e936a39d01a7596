import { APIResource, queryOf } from '../core/api-resource.js';
import type { APIPromise } from '../core/api-promise.js';
import type { ClientCore } from '../core/client-core.js';
import type { ClientOptions, RequestOptions } from '../core/client-options.js';
import type { PagePromise } from '../core/pagination.js';
import type { CustomerEvent, UserEvent } from '../events/cardrail-event.js';
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
import type { RawPayload, VerificationTimeOptions, WebhookHeaders, WebhookSecret } from '../webhooks/types.js';
import { webCryptoHmac } from '../webhooks/web-crypto.js';
import { type HmacProvider, unwrapOn } from '../webhooks/webhook-functions.js';
import type { ByVariant, VariantPaths } from './variant-paths.js';

/**
 * Where a build of the package root hands its clients the HMAC their `webhooks.unwrap` verifies with (the Node
 * build: node:crypto's). A symbol, not a `ClientOptions` field: the build chooses it, not the application.
 */
export const WEBHOOK_HMAC: unique symbol = /* @__PURE__ */ Symbol('@cardrail/sdk webhook HMAC');

/** A client's options as a build of the package root passes them. */
export type BuildClientOptions = ClientOptions & { readonly [WEBHOOK_HMAC]?: HmacProvider };

/** Delivery attempts of one webhook subscription. */
export class WebhookDeliveries<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A page of delivery attempts of the subscription, newest first, with their status and response. */
  list(webhookId: string, query?: WebhookDeliveryListParams, options?: RequestOptions): PagePromise<WebhookDelivery> {
    return this.sendPage('/webhooks/{webhookId}/deliveries', { path: { webhookId }, query: queryOf(query) }, options);
  }

  /** Sends a failed delivery again (a fresh attempt, signed afresh, same event id and `webhook-id`). */
  retry(webhookId: string, deliveryId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    const path = { webhookId, deliveryId };
    return this.send('post', '/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { path }, options);
  }
}

/** Webhook subscriptions, and `unwrap` to verify what they deliver. */
export class Webhooks<Paths extends VariantPaths> extends APIResource<Paths> {
  /** Delivery attempts of a subscription: list them, retry a failed one. */
  readonly deliveries = new WebhookDeliveries(this.core);
  readonly #unwrap: ReturnType<typeof unwrapOn>;

  /** `hmac`: the build's (the Node build's clients: node:crypto); Web Crypto by default. */
  constructor(core: ClientCore<Paths>, hmac: HmacProvider = webCryptoHmac) {
    super(core);
    this.#unwrap = unwrapOn(hmac);
  }

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

  /** Changes the URL, the event types, the description, the status (`disabled` stops deliveries) or `standardWebhooks`. */
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

  /**
   * Delivers a stored event to the webhook again, as a new delivery record that keeps the `webhook-id` (`messageId`)
   * of the event's first delivery to the webhook and the event id: to replay a real event to a receiver after a fix.
   * Resolves with the delivery once its first attempt has an outcome. At most 10 resends of one event to one webhook,
   * and 100 to one webhook, a minute of the test clock; beyond, `RateLimitError` (429) with `Retry-After`.
   */
  resend(webhookId: string, eventId: string, options?: RequestOptions): APIPromise<WebhookDelivery> {
    return this.send('post', '/webhooks/{webhookId}/events/{eventId}/resend', { path: { webhookId, eventId } }, options);
  }

  /**
   * Verifies a delivery and returns its event, typed in this client's envelope (the one webhooks created through this
   * variant receive): the raw body, the request's headers (either signature scheme, or both, read from them) and the
   * endpoint's secret. Rejects with `WebhookVerificationError` when the delivery is not genuine. The same as
   * `unwrap` from `@cardrail/sdk/webhooks`, on node:crypto in Node, Bun and Deno and on Web Crypto elsewhere.
   *
   * @example
   * ```ts
   * const event = await cardrail.webhooks.unwrap(await request.text(), request.headers, process.env.CARDRAIL_WEBHOOK_SECRET!);
   * ```
   */
  unwrap(
    body: RawPayload,
    headers: WebhookHeaders,
    secret: WebhookSecret,
    options?: VerificationTimeOptions,
  ): Promise<ByVariant<Paths, CustomerEvent, UserEvent>> {
    return this.#unwrap(body, headers, secret, options) as Promise<ByVariant<Paths, CustomerEvent, UserEvent>>;
  }
}

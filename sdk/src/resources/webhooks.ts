import { APIResource } from '../core/api-resource.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import type { VerificationTimeOptions } from '../webhooks/delivery.js';
import type { WebhookHeaders } from '../webhooks/request-headers.js';
import type { RawPayload, WebhookSecret } from '../webhooks/signature-checks.js';
import type { VariantEvent } from './events.js';
import type { VariantPaths } from './variant-paths.js';

const byWebhookId = (webhookId: string) => ({ webhookId });

/** The standalone `unwrap` of `@cardrail/sdk/webhooks`, on one runtime's HMAC. */
export type UnwrapFunction = (
  body: RawPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options?: VerificationTimeOptions,
) => Promise<CardrailEvent>;

/**
 * Web Crypto's `unwrap`, imported when first called (a client that never verifies a delivery never evaluates it).
 * The package root's Node build hands its clients node:crypto's `unwrap` instead (`useUnwrap`).
 */
const webCryptoUnwrap: UnwrapFunction = async (payload, headers, secret, options) =>
  (await import('../webhooks/web-crypto-verify.js')).webCryptoConstructEvent({ ...options, payload, headers, secret });

let setUnwrap: (webhooks: Webhooks<VariantPaths>, unwrap: UnwrapFunction) => void;

/** Delivery attempts of one webhook subscription. */
export class WebhookDeliveries<Paths extends VariantPaths> extends APIResource<Paths> {
  /** A page of delivery attempts of the subscription, newest first, with their status and response. */
  readonly list = this.paged('/webhooks/{webhookId}/deliveries', byWebhookId);

  /** Sends a failed delivery again (a fresh attempt, signed afresh, same event id and `webhook-id`). */
  readonly retry = this.call(
    'post',
    '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    (webhookId: string, deliveryId: string) => ({
      webhookId,
      deliveryId,
    }),
  );
}

/** Webhook subscriptions, and `unwrap` to verify what they deliver. */
export class Webhooks<Paths extends VariantPaths> extends APIResource<Paths> {
  #unwrap: UnwrapFunction = webCryptoUnwrap;

  static {
    setUnwrap = (webhooks, unwrap) => {
      webhooks.#unwrap = unwrap;
    };
  }

  /** Delivery attempts of a subscription: list them, retry a failed one. */
  readonly deliveries = new WebhookDeliveries(this.core);

  /** Subscribes a URL to event types. The response carries the signing `secret`, shown only here. */
  readonly create = this.callWithBody('post', '/webhooks');

  /** The subscription with this id (without its secret). */
  readonly retrieve = this.call('get', '/webhooks/{webhookId}', byWebhookId);

  /** Changes the URL, the event types, the description, the status (`disabled` stops deliveries) or `standardWebhooks`. */
  readonly update = this.callWithBody('patch', '/webhooks/{webhookId}', byWebhookId);

  /** A page of subscriptions, newest first. */
  readonly list = this.paged('/webhooks');

  /** Deletes the subscription. */
  readonly delete = this.call('delete', '/webhooks/{webhookId}', byWebhookId);

  /** Issues a new signing secret; the old one keeps signing beside it for 24 hours. */
  readonly rotateSecret = this.call('post', '/webhooks/{webhookId}/rotate-secret', byWebhookId);

  /**
   * Delivers a stored event to the webhook again, as a new delivery (a new `webhook-id`, the same event id): to replay
   * a real event to a receiver after a fix. Resolves with the delivery once its first attempt has an outcome.
   */
  readonly resend = this.call('post', '/webhooks/{webhookId}/events/{eventId}/resend', (webhookId: string, eventId: string) => ({
    webhookId,
    eventId,
  }));

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
  readonly unwrap = (
    body: RawPayload,
    headers: WebhookHeaders,
    secret: WebhookSecret,
    options?: VerificationTimeOptions,
  ): Promise<VariantEvent<Paths>> => this.#unwrap(body, headers, secret, options) as Promise<VariantEvent<Paths>>;
}

/** Gives a client's `webhooks.unwrap` the `unwrap` of its build (the package root's Node build: node:crypto's). */
export function useUnwrap(webhooks: Webhooks<VariantPaths>, unwrap: UnwrapFunction): void {
  setUnwrap(webhooks, unwrap);
}

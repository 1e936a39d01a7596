import { generateSignatureHeader, SIGNATURE_HEADER } from '@cardrail/sdk/webhooks';
import type { AnyStoredEvent } from '../core/event-types.js';
import type { Tenant } from '../core/tenant.js';
import { VARIANTS, type Variant } from '../core/variant.js';
import { activeSecrets, deliveries, DELIVERY_TIMEOUT_MS, RETRY_DELAYS_MS, webhooks, type DeliveryRecord } from './records.js';
import { subscriptionIndex } from './subscription-index.js';
import type { RenderedEvent } from '../variants/codec.js';

/** Renders a stored event for a variant, or undefined when that variant has no such event type. */
export type EventRenderer = (event: AnyStoredEvent, variant: Variant) => RenderedEvent | undefined;

/** The `fetch` webhook deliveries are sent with (`MockServerOptions.fetch`). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface DispatcherOptions {
  render: EventRenderer;
  /** The fetch that POSTs deliveries. Default: `globalThis.fetch`, looked up at each attempt so MSW can intercept. */
  fetch?: FetchFunction | undefined;
  timeoutMs?: number | undefined;
}

/**
 * Turns every stored event into one delivery per subscribed webhook and carries out its attempts: a signed POST,
 * success on any 2xx within the timeout, a redirect or anything else is a failure, then the retry schedule on
 * the tenant's test clock. Attempts run as scheduled work, so the request that caused an event never waits.
 */
export class WebhookDispatcher {
  readonly #timeoutMs: number;

  constructor(private readonly options: DispatcherOptions) {
    this.#timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** The event listener: creates the deliveries of the event's subscribers and schedules each first attempt for now. */
  readonly onEvent = (event: AnyStoredEvent, tenant: Tenant): void => {
    const index = subscriptionIndex(tenant);
    if (index.size === 0) return;
    for (const variant of VARIANTS) {
      const rendered = this.options.render(event, variant);
      if (!rendered) continue;
      for (const webhookId of index.subscribers(variant, rendered.type)) {
        const now = tenant.now();
        const delivery = deliveries.of(tenant).insert({
          id: tenant.ids.next('webhookDelivery'),
          webhookId,
          eventId: event.id,
          eventType: rendered.type,
          status: 'pending',
          attempts: [],
          automaticAttempts: 0,
          nextAttemptAt: now,
          nextAttempt: null,
          createdAt: now,
        });
        this.#scheduleAutomatic(tenant, delivery, now);
      }
    }
  };

  /** A manual attempt now, also for a `failed` delivery; resolves once the attempt has an outcome. */
  async retry(tenant: Tenant, delivery: DeliveryRecord): Promise<DeliveryRecord> {
    await this.#attempt(tenant, delivery, false);
    return delivery;
  }

  /**
   * A webhook was deleted: it gets no new deliveries, and the pending attempts of its deliveries end without a
   * POST when they fall due (so deleting costs the same whatever the webhook's history).
   */
  forget(tenant: Tenant, webhookId: string): void {
    subscriptionIndex(tenant).remove(webhookId);
  }

  #scheduleAutomatic(tenant: Tenant, delivery: DeliveryRecord, dueAt: number): void {
    delivery.nextAttemptAt = dueAt;
    delivery.nextAttempt = tenant.scheduler.schedule(
      dueAt,
      () => {
        delivery.nextAttempt = null;
        tenant.scheduler.track(this.#attempt(tenant, delivery, true));
      },
      `webhook delivery ${delivery.id}`,
    );
  }

  async #attempt(tenant: Tenant, delivery: DeliveryRecord, automatic: boolean): Promise<void> {
    const webhook = webhooks.of(tenant).get(delivery.webhookId);
    if (!webhook) {
      // Deleted meanwhile: its deliveries are gone from the API, nothing is sent.
      this.#settle(delivery, 'failed');
      return;
    }
    const event = tenant.events.get(delivery.eventId);
    if (automatic) delivery.automaticAttempts++;
    const attemptedAt = tenant.now();
    const attempt = delivery.attempts.length + 1;
    if (!event || webhook.status !== 'active') {
      // A webhook disabled while a delivery waits: the event is recorded as failed (a manual retry can still send
      // it once the webhook is active again), never silently dropped.
      delivery.attempts.push({
        attempt,
        attemptedAt,
        outcome: 'failed',
        responseStatus: null,
        error: 'webhook is disabled',
        durationMs: 0,
      });
      this.#settle(delivery, 'failed');
      return;
    }
    const rendered = this.options.render(event, webhook.variant);
    const body = JSON.stringify(rendered?.envelope);
    const started = performance.now();
    let responseStatus: number | null = null;
    // Set for failures without a status to tell (network error, timeout) and for redirects.
    let error: string | null = null;
    try {
      const signature = await generateSignatureHeader({
        payload: body,
        secret: activeSecrets(webhook, attemptedAt),
        timestamp: Math.floor(attemptedAt / 1000),
      });
      const fetchFunction: FetchFunction = this.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
      const response = await fetchFunction(webhook.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Cardrail-Webhooks/1.0',
          [SIGNATURE_HEADER]: signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      responseStatus = response.status;
      // The body is not used; reading it frees the connection.
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 300 && response.status < 400) error = 'redirect responses are not followed';
    } catch (cause) {
      error = describeFetchError(cause, this.#timeoutMs);
    }
    const succeeded = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
    delivery.attempts.push({
      attempt,
      attemptedAt,
      outcome: succeeded ? 'succeeded' : 'failed',
      responseStatus,
      error,
      durationMs: Math.max(0, Math.round(performance.now() - started)),
    });
    if (succeeded) this.#settle(delivery, 'succeeded');
    else this.#afterFailure(tenant, delivery, attemptedAt, automatic);
  }

  /** Ends the delivery's schedule with a final status. */
  #settle(delivery: DeliveryRecord, status: 'succeeded' | 'failed'): void {
    delivery.status = status;
    delivery.nextAttempt?.cancel();
    delivery.nextAttempt = null;
    delivery.nextAttemptAt = null;
  }

  #afterFailure(tenant: Tenant, delivery: DeliveryRecord, attemptedAt: number, automatic: boolean): void {
    if (delivery.status === 'succeeded') return;
    if (!automatic) {
      // A manual retry leaves a pending automatic schedule in place.
      if (delivery.nextAttempt === null) this.#settle(delivery, 'failed');
      return;
    }
    const delay = RETRY_DELAYS_MS[delivery.automaticAttempts];
    if (delay === undefined) {
      this.#settle(delivery, 'failed');
      return;
    }
    delivery.status = 'pending';
    this.#scheduleAutomatic(tenant, delivery, attemptedAt + delay);
  }
}

function describeFetchError(cause: unknown, timeoutMs: number): string {
  if (cause instanceof Error) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return `no response within ${timeoutMs} ms`;
    // fetch reports the system error (ECONNREFUSED, ...) as the `cause` of its TypeError.
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = inner instanceof Error ? ((inner as Error & { code?: string }).code ?? inner.message) : undefined;
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

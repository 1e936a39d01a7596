import { generateSignatureHeader, SIGNATURE_HEADER } from '@cardrail/sdk/webhooks';
import type { MockEvent } from '../core/event-log.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import {
  activeSecrets,
  deliveries,
  DELIVERY_TIMEOUT_MS,
  RETRY_DELAYS_MS,
  webhooks,
  type DeliveryRecord,
  type WebhookRecord,
} from './records.js';

/** An event as one variant sends it: its type name there and the envelope object. */
export interface RenderedEvent {
  type: string;
  envelope: unknown;
}

/** Renders a stored event for a variant, or undefined when that variant has no such event type. */
export type EventRenderer = (event: MockEvent, variant: Variant) => RenderedEvent | undefined;

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

  /** The event listener: creates the deliveries and schedules each first attempt for now. */
  readonly onEvent = (event: MockEvent, tenant: Tenant): void => {
    for (const webhook of webhooks.of(tenant).values({ status: 'active' })) {
      const rendered = this.options.render(event, webhook.variant);
      if (!rendered || !subscribes(webhook, rendered.type)) continue;
      const now = tenant.now();
      const delivery = deliveries.of(tenant).insert({
        id: tenant.ids.next('webhookDelivery'),
        webhookId: webhook.id,
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
  };

  /** A manual attempt now, also for a `failed` delivery; resolves once the attempt has an outcome. */
  async retry(tenant: Tenant, delivery: DeliveryRecord): Promise<DeliveryRecord> {
    await this.#attempt(tenant, delivery, false);
    return delivery;
  }

  /** Stops the pending attempts of a webhook's deliveries and forgets them (the webhook was deleted). */
  forget(tenant: Tenant, webhookId: string): void {
    const list = deliveries.of(tenant);
    for (const delivery of [...list.values({ webhookId })]) {
      delivery.nextAttempt?.cancel();
      list.delete(delivery.id);
    }
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
    const event = tenant.events.get(delivery.eventId);
    if (automatic) delivery.automaticAttempts++;
    const attemptedAt = tenant.now();
    const attempt = delivery.attempts.length + 1;
    if (!webhook || !event || webhook.status !== 'active') {
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

function subscribes(webhook: WebhookRecord, type: string): boolean {
  return webhook.events.includes('*') || webhook.events.includes(type);
}

function describeFetchError(cause: unknown, timeoutMs: number): string {
  if (cause instanceof Error) {
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return `no response within ${timeoutMs} ms`;
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = inner instanceof Error ? ((inner as Error & { code?: string }).code ?? inner.message) : undefined;
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return String(cause);
}

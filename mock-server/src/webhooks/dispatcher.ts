import { invalidRequest } from '../core/errors.js';
import type { AnyStoredEvent } from '../core/event-types.js';
import type { Tenant } from '../core/tenant.js';
import { VARIANTS } from '../core/variant.js';
import {
  activeSecrets,
  deliveries,
  DELIVERY_TIMEOUT_MS,
  RETRY_DELAYS_MS,
  sendsStandardWebhooks,
  type DeliveryRecord,
  type WebhookRecord,
} from './records.js';
import { subscriptionIndex } from './subscription-index.js';
import type { EventRenderer } from './event-renderer.js';
import { AttemptLimiter, LimiterClosedError } from './attempt-limiter.js';
import { attemptLabel } from './attempt-label.js';
import { messageIds } from './message-ids.js';
import { takeResend } from './resend-limit.js';
import { type AttemptOutcome, type FetchFunction, originOf, sendAttempt, succeeded } from './send-attempt.js';
import { pendingAttempts, planAttempt, recordAttempt, settleDelivery } from './delivery-outcome.js';
import { signer } from './signing.js';
import { WebhookUrlPolicy } from './url-policy.js';

export type { FetchFunction } from './send-attempt.js';

/**
 * Attempts in flight by default (docs/webhooks.md#connections): from one organization to one origin, to one origin
 * in all, and overall.
 */
export const DEFAULT_ATTEMPTS_PER_ORGANIZATION = 8;
export const DEFAULT_ATTEMPTS_PER_ORIGIN = 32;
export const DEFAULT_ATTEMPTS_IN_FLIGHT = 128;

export interface DispatcherOptions {
  render: EventRenderer;
  /** The fetch that POSTs deliveries. Default: `globalThis.fetch`, looked up at each attempt so MSW can intercept. */
  fetch?: FetchFunction | undefined;
  timeoutMs?: number | undefined;
  /** Hosts opened explicitly, whatever their address (docs/webhooks.md#where-deliveries-may-go). */
  allowHosts?: readonly string[] | undefined;
  attemptsPerOrganization?: number | undefined;
  attemptsPerOrigin?: number | undefined;
  attemptsInFlight?: number | undefined;
}

/**
 * How much longer than an attempt's timeout its claim lasts (several processes sharing the state): time to record the
 * outcome before another process may take the attempt over.
 */
const CLAIM_MARGIN_MS = 5_000;

/**
 * Turns every stored event into one delivery per subscribed webhook and carries out its attempts: a signed POST,
 * success on any 2xx within the timeout, a redirect or anything else is a failure, then the retry schedule on
 * the tenant's test clock. Attempts run as scheduled work, so the request that caused an event never waits; they
 * share a bounded number of slots per organization and origin, per origin and overall (AttemptLimiter), and an
 * attempt waiting for a slot keeps its place and its delivery's schedule. Every attempt of a delivery carries its
 * message id as `webhook-id`: the id of its event's first delivery to the webhook, resends included.
 */
export class WebhookDispatcher {
  readonly #timeoutMs: number;
  readonly urlPolicy: WebhookUrlPolicy;
  readonly #limiter: AttemptLimiter;

  constructor(private readonly options: DispatcherOptions) {
    this.#timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.urlPolicy = new WebhookUrlPolicy(options.allowHosts);
    this.#limiter = new AttemptLimiter({
      perOrganization: options.attemptsPerOrganization ?? DEFAULT_ATTEMPTS_PER_ORGANIZATION,
      perOrigin: options.attemptsPerOrigin ?? DEFAULT_ATTEMPTS_PER_ORIGIN,
      total: options.attemptsInFlight ?? DEFAULT_ATTEMPTS_IN_FLIGHT,
    });
  }

  /** Refuses a webhook URL the policy does not allow: 400 naming the reason. */
  checkUrl(url: string, field = '/body/url'): void {
    const problem = this.urlPolicy.problem(url);
    if (problem) throw invalidRequest(field, problem);
  }

  /** The event listener: creates the deliveries of the event's subscribers and schedules each first attempt for now. */
  readonly onEvent = (event: AnyStoredEvent, tenant: Tenant): void => {
    const index = subscriptionIndex(tenant);
    if (index.size === 0) return;
    for (const variant of VARIANTS) {
      const rendered = this.options.render(event, variant);
      if (!rendered) continue;
      for (const webhookId of index.subscribers(variant, rendered.type)) {
        const delivery = this.#newDelivery(tenant, webhookId, event.id, rendered.type);
        this.#scheduleAutomatic(tenant, delivery.id, delivery.createdAt);
      }
    }
  };

  /**
   * A stored event sent to a webhook again, as a new delivery record on the usual schedule that keeps the message id
   * (`webhook-id`) of the event's first delivery to the webhook, or starts one when there was none; resolves once
   * its first attempt has an outcome. Refused with 429 past the resend limits (resend-limit.ts). The caller checks
   * that the webhook's variant has the event's type.
   */
  async resend(tenant: Tenant, webhook: WebhookRecord, event: AnyStoredEvent): Promise<DeliveryRecord> {
    const rendered = this.options.render(event, webhook.variant);
    if (!rendered) throw new Error(`Event ${event.id} has no ${webhook.variant} form to resend.`);
    takeResend(tenant, webhook.id, event.id);
    const messageId = messageIds(tenant).of(webhook.id, event.id);
    const delivery = this.#newDelivery(tenant, webhook.id, event.id, rendered.type, messageId);
    await this.#awaitOutside(tenant, this.#attempt(tenant, delivery.id, true));
    return deliveries.of(tenant).get(delivery.id) ?? delivery;
  }

  #newDelivery(tenant: Tenant, webhookId: string, eventId: string, eventType: string, messageId?: string): DeliveryRecord {
    const now = tenant.now();
    const id = tenant.ids.next('webhookDelivery');
    const delivery = deliveries.of(tenant).insert({
      id,
      messageId: messageId ?? id,
      webhookId,
      eventId,
      eventType,
      status: 'pending',
      attempts: [],
      automaticAttempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
    messageIds(tenant).note(delivery);
    return delivery;
  }

  /** After a restore: every pending delivery's next automatic attempt is scheduled again, at its own time. */
  readonly onRestore = (tenant: Tenant): void => {
    // Oldest first: attempts due at the same instant keep the order they were first scheduled in.
    for (const [, delivery] of deliveries.of(tenant).entries()) {
      if (delivery.status === 'pending' && delivery.nextAttemptAt !== null) {
        this.#scheduleAutomatic(tenant, delivery.id, delivery.nextAttemptAt);
      }
    }
  };

  /** A manual attempt now, also for a `failed` delivery; resolves once the attempt has an outcome. */
  async retry(tenant: Tenant, delivery: DeliveryRecord): Promise<DeliveryRecord> {
    await this.#awaitOutside(tenant, this.#attempt(tenant, delivery.id, false));
    return deliveries.of(tenant).get(delivery.id) ?? delivery;
  }

  /**
   * A webhook was deleted: it gets no new deliveries, and the pending attempts of its deliveries end without a
   * POST when they fall due (so deleting costs the same whatever the webhook's history).
   */
  forget(tenant: Tenant, webhookId: string): void {
    subscriptionIndex(tenant).remove(webhookId);
  }

  /** Shutting down: attempts waiting for a slot never start (their deliveries stay pending); those in flight finish. */
  stop(): void {
    this.#limiter.close();
  }

  #scheduleAutomatic(tenant: Tenant, deliveryId: string, dueAt: number): void {
    const handles = pendingAttempts.of(tenant);
    handles.get(deliveryId)?.cancel();
    const handle = tenant.scheduler.schedule(
      dueAt,
      () => {
        handles.delete(deliveryId);
        tenant.scheduler.track(this.#attempt(tenant, deliveryId, true), attemptLabel(deliveryId));
      },
      attemptLabel(deliveryId),
    );
    handles.set(deliveryId, handle);
  }

  /**
   * A request waiting for an attempt it started: with several processes sharing the state, the organization's lock is
   * let go meanwhile (the attempt records its outcome under the lock itself).
   */
  #awaitOutside(tenant: Tenant, attempt: Promise<void>): Promise<void> {
    return tenant.gate ? tenant.gate.outside(tenant, () => attempt) : attempt;
  }

  /**
   * One attempt: checked now (the caller holds the tenant), sent once a connection slot is free, its outcome recorded.
   * With several processes sharing the state, an automatic attempt is first claimed (committed before the POST: one
   * process sends it; one that dies with it is followed by another, with the same `webhook-id`), and its outcome is
   * recorded under the lock only while the claim is still this one's.
   */
  async #attempt(tenant: Tenant, deliveryId: string, automatic: boolean): Promise<void> {
    const plan = planAttempt(tenant, deliveryId, automatic, (url) => this.#refusal(url));
    if (!plan) return;
    let release: () => void;
    try {
      // Each organization (and mode) has its own share of the origin: another's queue never stands before it.
      release = await this.#limiter.acquire(originOf(plan.webhook.url), tenant.key);
    } catch (error) {
      // Shutting down before this attempt got a slot: nothing was sent and nothing is recorded (still pending).
      if (error instanceof LimiterClosedError) return;
      throw error;
    }
    try {
      const gate = tenant.gate;
      const leaseMs = this.#timeoutMs + CLAIM_MARGIN_MS;
      const claim =
        gate && automatic
          ? await gate.inside(tenant, (current) =>
              deliveries.of(current).get(deliveryId)?.status === 'pending'
                ? gate.claim(current, attemptLabel(deliveryId), leaseMs)
                : undefined,
            )
          : undefined;
      if (gate && automatic && !claim) return;
      const outcome = await this.#send(tenant, plan.webhook, plan.messageId, plan.event);
      const settle = (current: Tenant) => {
        if (claim && gate) {
          // Taken over after its lease ended (this process froze): the other process's attempt counts.
          if (!gate.holds(current, claim)) return;
          gate.release(current, claim);
        }
        recordAttempt(current, deliveryId, automatic, outcome);
        if (succeeded(outcome)) settleDelivery(current, deliveryId, 'succeeded');
        else this.#afterFailure(current, deliveryId, outcome.attemptedAt, automatic);
      };
      if (gate) await gate.inside(tenant, settle);
      else settle(tenant);
    } finally {
      release();
    }
  }

  /** One POST of the event in the webhook's envelope, signed now with its active secrets; its outcome. */
  async #send(tenant: Tenant, webhook: WebhookRecord, messageId: string, event: AnyStoredEvent): Promise<AttemptOutcome> {
    const attemptedAt = tenant.now();
    const body = JSON.stringify(this.options.render(event, webhook.variant)?.envelope);
    let headers: Record<string, string>;
    try {
      headers = await (await signer())({
        body,
        secrets: activeSecrets(webhook, attemptedAt),
        timestamp: Math.floor(attemptedAt / 1000),
        messageId,
        standardWebhooks: sendsStandardWebhooks(webhook),
      });
    } catch (cause) {
      // The signing code did not load (a chunk that did not arrive): the attempt fails and is retried on schedule.
      return { attemptedAt, responseStatus: null, error: `could not sign: ${String(cause)}`, durationMs: 0 };
    }
    const fetch: FetchFunction = this.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    // The duration is the receiver's: the first attempt's loading of the signing code is not part of it.
    const started = performance.now();
    return sendAttempt({ fetch, url: webhook.url, headers, body, timeoutMs: this.#timeoutMs, attemptedAt, started });
  }

  #refusal(url: string): string | null {
    const problem = this.urlPolicy.problem(url);
    return problem === undefined ? null : `refused: the URL ${problem}`;
  }

  #afterFailure(tenant: Tenant, deliveryId: string, attemptedAt: number, automatic: boolean): void {
    const delivery = deliveries.of(tenant).get(deliveryId);
    if (!delivery || delivery.status === 'succeeded') return;
    if (!automatic) {
      // A manual retry leaves a pending automatic schedule in place.
      if (!pendingAttempts.of(tenant).has(deliveryId)) settleDelivery(tenant, deliveryId, 'failed');
      return;
    }
    const delay = RETRY_DELAYS_MS[delivery.automaticAttempts];
    if (delay === undefined) {
      settleDelivery(tenant, deliveryId, 'failed');
      return;
    }
    deliveries.of(tenant).update(deliveryId, (record) => {
      record.status = 'pending';
      record.nextAttemptAt = attemptedAt + delay;
    });
    this.#scheduleAutomatic(tenant, deliveryId, attemptedAt + delay);
  }
}

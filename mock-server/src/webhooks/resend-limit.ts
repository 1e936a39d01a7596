import type { EpochMs } from '../core/clock.js';
import { HttpError } from '../core/errors.js';
import { defineTenantState, type Tenant } from '../core/tenant.js';

/**
 * Resends accepted per minute of the organization's test clock (docs/webhooks.md#resending-an-event): of one event to
 * one webhook, and to one webhook in all. Each is an outbound request to a URL the key holder chose.
 */
const RESENDS_PER_EVENT = 10;
const RESENDS_PER_WEBHOOK = 100;
const WINDOW_MS = 60_000;

interface Window {
  readonly startedAt: EpochMs;
  count: number;
}

/**
 * Fixed one-minute windows by key, each started by its first resend, as the key's rate limit counts
 * (docs/rate-limits.md). A new window goes to the back of the map, so the map runs oldest first and the windows whose
 * minute is over are dropped from its front: it holds only the last minute's.
 */
class Windows {
  readonly #byKey = new Map<string, Window>();

  at(key: string, now: EpochMs): Window {
    for (const [oldKey, window] of this.#byKey) {
      if (now - window.startedAt < WINDOW_MS) break;
      this.#byKey.delete(oldKey);
    }
    let window = this.#byKey.get(key);
    if (window === undefined) {
      window = { startedAt: now, count: 0 };
      this.#byKey.set(key, window);
    }
    return window;
  }
}

// Working state, not saved: a restart starts every window afresh, as it does the key's rate limit.
const windows = defineTenantState('webhooks.resendWindows', () => ({ perEvent: new Windows(), perWebhook: new Windows() }));

/**
 * Counts one resend of `eventId` to `webhookId`, or refuses it with 429 `rate_limited` and `Retry-After` (the seconds
 * left of the window that is full) when either window is full. A refused resend is not counted.
 */
export function takeResend(tenant: Tenant, webhookId: string, eventId: string): void {
  const now = tenant.now();
  const { perEvent, perWebhook } = windows.of(tenant);
  const ofEvent = perEvent.at(`${webhookId} ${eventId}`, now);
  const ofWebhook = perWebhook.at(webhookId, now);
  if (ofEvent.count >= RESENDS_PER_EVENT) {
    throw limited(
      ofEvent,
      now,
      RESENDS_PER_EVENT,
      `Resend limit of ${RESENDS_PER_EVENT} per minute for event ${eventId} to webhook ${webhookId} exceeded.`,
      { webhookId, eventId },
    );
  }
  if (ofWebhook.count >= RESENDS_PER_WEBHOOK) {
    throw limited(
      ofWebhook,
      now,
      RESENDS_PER_WEBHOOK,
      `Resend limit of ${RESENDS_PER_WEBHOOK} per minute for webhook ${webhookId} exceeded.`,
      {
        webhookId,
      },
    );
  }
  ofEvent.count++;
  ofWebhook.count++;
}

function limited(window: Window, now: EpochMs, limit: number, message: string, scope: Record<string, string>): HttpError {
  const retryAfter = Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - now) / 1000));
  return new HttpError(429, 'rate_limited', message, { limit, ...scope }, { 'Retry-After': String(retryAfter) });
}

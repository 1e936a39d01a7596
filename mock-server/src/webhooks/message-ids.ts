import { defineTenantState, type Tenant } from '../core/tenant.js';
import { deliveries, type DeliveryRecord, messageIdOf } from './records.js';

/**
 * The Standard Webhooks message id (`webhook-id`) of each event delivered to each webhook of one organization and
 * mode: the id of the event's first delivery to the webhook, which every later delivery of that event to that
 * webhook (a resend) carries too (docs/webhooks.md#resending-an-event). Every delivery record stores its message id,
 * so this is only a lookup over them, rebuilt from the records after a restore; a store shared by several processes
 * would answer the same question from the records themselves.
 */
class MessageIds {
  /** `<eventId> <webhookId>` to the message id, in the order the pairs were first delivered. */
  readonly #byPair = new Map<string, string>();

  constructor(private readonly tenant: Tenant) {}

  /** The message id of `eventId`'s deliveries to `webhookId`, or undefined when it was never delivered there. */
  of(webhookId: string, eventId: string): string | undefined {
    return this.#byPair.get(pairKey(eventId, webhookId));
  }

  /** Records a new delivery's message id (the first of its pair wins), dropping pairs whose event is gone. */
  note(delivery: DeliveryRecord): void {
    const key = pairKey(delivery.eventId, delivery.webhookId);
    if (!this.#byPair.has(key)) this.#byPair.set(key, messageIdOf(delivery));
    this.#dropGone();
  }

  /**
   * Events leave the log oldest first (retention), and a pair's first delivery comes after its event: the oldest
   * pairs are the first whose event can be gone, and without the event nothing can be resent. O(1) amortized.
   */
  #dropGone(): void {
    for (const key of this.#byPair.keys()) {
      if (this.tenant.events.get(key.slice(0, key.indexOf(' '))) !== undefined) return;
      this.#byPair.delete(key);
    }
  }
}

function pairKey(eventId: string, webhookId: string): string {
  return `${eventId} ${webhookId}`;
}

const slot = defineTenantState('webhooks.messageIds', (tenant) => {
  const ids = new MessageIds(tenant);
  for (const [, delivery] of deliveries.of(tenant).entries()) ids.note(delivery);
  return ids;
});

export function messageIds(tenant: Tenant): MessageIds {
  return slot.of(tenant);
}

import { defineTenantState, type Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import { eventNaming } from '../core/event-naming.js';
import { webhooks, type WebhookRecord } from './records.js';
import { getOrCreate } from '../core/get-or-create.js';

/**
 * The active webhooks of one organization and mode by the event type they subscribe to (as named in their
 * variant, or `*`). An event's fan-out looks up its subscribers instead of visiting every webhook.
 */
export class SubscriptionIndex {
  readonly #byType = new Map<string, Set<string>>();
  readonly #keysOf = new Map<string, string[]>();

  /** How many webhooks subscribe to anything. */
  get size(): number {
    return this.#keysOf.size;
  }

  /** Indexes a webhook as it is now (an inactive one subscribes to nothing). */
  set(webhook: WebhookRecord): void {
    this.remove(webhook.id);
    if (webhook.status !== 'active') return;
    // Indexed by the names of the webhook's own variant, the names its deliveries carry; a type that variant lacks
    // is never delivered to it.
    const keys = webhook.events.flatMap((type) => {
      const name = type === '*' ? '*' : eventNaming.nameIn(webhook.variant, type);
      return name === undefined ? [] : [indexKey(webhook.variant, name)];
    });
    for (const key of keys) getOrCreate(this.#byType, key, () => new Set<string>()).add(webhook.id);
    this.#keysOf.set(webhook.id, keys);
  }

  remove(webhookId: string): void {
    for (const key of this.#keysOf.get(webhookId) ?? []) this.#byType.get(key)?.delete(webhookId);
    this.#keysOf.delete(webhookId);
  }

  /** Ids of the active webhooks of `variant` subscribed to `type` (by name or `*`), each once. */
  subscribers(variant: Variant, type: string): Set<string> {
    return new Set([...(this.#byType.get(indexKey(variant, type)) ?? []), ...(this.#byType.get(indexKey(variant, '*')) ?? [])]);
  }
}

function indexKey(variant: Variant, type: string): string {
  return `${variant}\u0000${type}`;
}

// Derived from the webhook records on first use, so a restored tenant's index is rebuilt from its webhooks.
const slot = defineTenantState('webhooks.subscriptions', (tenant) => {
  const index = new SubscriptionIndex();
  for (const webhook of webhooks.of(tenant).values()) index.set(webhook);
  return index;
});

export function subscriptionIndex(tenant: Tenant): SubscriptionIndex {
  return slot.of(tenant);
}

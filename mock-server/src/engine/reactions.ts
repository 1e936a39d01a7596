import type { TenantListeners } from '../core/tenant.js';
import { rescheduleIntentExpiries } from './intents/intent-service.js';
import { rescheduleTokenExpiries, settleTokensOf } from './payment-tokens/token-lifecycle.js';
import { rearmAllTtls, rearmTtlsUnder, scheduleCardTtl } from './ttl.js';

/**
 * The spend and risk engine's reactions to the platform: it arms a card's TTL on the test clock as soon as
 * `card.created` is stored, re-arms the TTLs a policy change of the card, its agent or its customer moves (the TTL
 * comes from the merged policy), settles the payment tokens waiting on an intent when a person decides on it (or it
 * expires), and schedules TTLs and expiries again when a saved state is restored. Registered by
 * composition/tenant-hooks.ts; the engine's operations are resources/engine.ts.
 */
export const engineReactions = {
  onEvent: (event, tenant) => {
    if (event.type === 'card.created') scheduleCardTtl(tenant, event.data.cardId);
    // A person's decision on an intent settles the payment tokens that wait on it.
    else if (event.type === 'intent.approved') settleTokensOf(tenant, event.data.intentId, 'approved');
    else if (event.type === 'intent.rejected') settleTokensOf(tenant, event.data.intentId, 'rejected');
    else if (event.type === 'intent.expired') settleTokensOf(tenant, event.data.intentId, 'expired');
  },
  onPolicyChanged: (change, tenant) => rearmTtlsUnder(tenant, change),
  // Restored from saved state: the TTLs and intent expiries are scheduled again from the records.
  onRestore: (tenant) => {
    rearmAllTtls(tenant);
    rescheduleIntentExpiries(tenant);
    rescheduleTokenExpiries(tenant);
  },
} satisfies TenantListeners;

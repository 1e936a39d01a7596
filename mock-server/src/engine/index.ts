import type { MockExtension } from '../extension.js';
import { rescheduleIntentExpiries } from './intents/intent-service.js';
import { rearmAllTtls, rearmTtlsUnder, scheduleCardTtl } from './ttl.js';

/**
 * The spend and risk engine's reactions to the platform: it arms a card's TTL on the test clock as soon as
 * `card.created` is stored, and re-arms the TTLs a policy change of the card, its agent or its customer moves (the
 * TTL comes from the merged policy), and schedules both again when a saved state is restored. Its operations are in handlers.ts, registered with the platform's in
 * src/operations/handlers.ts.
 */
export const engineExtension: MockExtension = {
  name: 'engine',
  onEvent: (event, tenant) => {
    if (event.type === 'card.created') scheduleCardTtl(tenant, event.data.cardId);
  },
  onPolicyChanged: (change, tenant) => rearmTtlsUnder(tenant, change),
  // Restored from saved state: the TTLs and intent expiries are scheduled again from the records.
  onRestore: (tenant) => {
    rearmAllTtls(tenant);
    rescheduleIntentExpiries(tenant);
  },
};

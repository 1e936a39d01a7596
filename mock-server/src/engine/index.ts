import type { MockExtension } from '../extension.js';
import { engineHandlers } from './http/handlers.js';
import { rearmTtlsUnder, scheduleCardTtl } from './ttl.js';

/**
 * The spend and risk engine (issue 5): policies, spend evaluation, intents, credentials and attestation,
 * simulated transactions, limits, TTL, the risk engine and money. It serves its operations by operationId,
 * arms a card's TTL on the test clock as soon as `card.created` is stored, and re-arms the TTLs a policy change
 * of the card, its agent or its customer moves (the TTL comes from the merged policy).
 */
export const engineExtension: MockExtension = {
  name: 'engine',
  handlers: engineHandlers,
  onEvent: (event, tenant) => {
    if (event.type === 'card.created') scheduleCardTtl(tenant, event.data.cardId as string);
  },
  onPolicyChanged: (change, tenant) => rearmTtlsUnder(tenant, change),
};

import type { MockExtension } from '../extension.js';
import { engineHandlers } from './http/handlers.js';
import { policyChangeHooks } from './http/policy-change-hooks.js';
import { platformPorts } from './platform-adapter.js';
import { scheduleCardTtl } from './ttl.js';

/**
 * The spend and risk engine (issue 5): policies, spend evaluation, intents, credentials and attestation,
 * simulated transactions, limits, TTL, the risk engine and money. It serves its operations by operationId and
 * arms a card's TTL on the test clock as soon as `card.created` is stored.
 */
export const engineExtension: MockExtension = {
  name: 'engine',
  handlers: { ...engineHandlers, ...policyChangeHooks },
  onEvent: (event, tenant) => {
    if (event.type === 'card.created') scheduleCardTtl({ tenant, platform: platformPorts }, event.data.cardId as string);
  },
};

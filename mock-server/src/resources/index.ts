import type { EventNaming } from '../events/naming.js';
import type { MockExtension } from '../extension.js';
import { agentHandlers } from './agents.js';
import { apiKeyHandlers } from './api-keys.js';
import { cardHandlers } from './cards.js';
import { clockHandlers } from './clock.js';
import { customerHandlers } from './customers.js';
import { eventHandlers } from './events.js';
import { webhookHandlers } from './webhooks.js';

/** The platform's resources: customers/users, agents, cards, balances, webhooks, events, API keys, the clock. */
export function platformExtension(naming: EventNaming): MockExtension {
  return {
    name: 'platform',
    handlers: {
      ...customerHandlers,
      ...agentHandlers,
      ...cardHandlers,
      ...webhookHandlers(naming),
      ...eventHandlers,
      ...apiKeyHandlers,
      ...clockHandlers,
    },
  };
}

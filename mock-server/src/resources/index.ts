import { agentHandlers } from './agents.js';
import { apiKeyHandlers } from './api-keys.js';
import { cardHandlers } from './cards.js';
import { clockHandlers } from './clock.js';
import { customerHandlers } from './customers.js';
import { eventHandlers } from './events.js';
import { webhookHandlers } from './webhooks.js';

/** The platform's operations: customers/users, agents, cards, balances, webhooks, events, API keys, the clock. */
export const platformHandlers = {
  ...customerHandlers,
  ...agentHandlers,
  ...cardHandlers,
  ...webhookHandlers,
  ...eventHandlers,
  ...apiKeyHandlers,
  ...clockHandlers,
};

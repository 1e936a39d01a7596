import type { NeutralHandlers, NeutralOperationId } from '../operations/neutral.js';
import { agentHandlers } from './agents.js';
import { apiKeyHandlers } from './api-keys.js';
import { cardHandlers } from './cards.js';
import { clockHandlers } from './clock.js';
import { customerHandlers } from './customers.js';
import { engineHandlers } from './engine.js';
import { eventHandlers } from './events.js';
import { mandateHandlers } from './mandates.js';
import { paymentTokenHandlers } from './payment-tokens.js';
import { webhookHandlers } from './webhooks.js';

/**
 * Every operation's neutral handler, by operationId: the platform's (customers/users, agents, cards, balances,
 * webhooks, events, API keys, the clock) and the spend and risk engine's, payment tokens and mandates included. `satisfies` makes a missing or misspelt
 * operationId a compile error; each handler's own return type is what the variants' codecs must render. The HTTP
 * layer runs them through http/run-built-in.ts, unless a `handlers` option or an extension replaces one.
 */
export const builtInHandlers = {
  ...customerHandlers,
  ...agentHandlers,
  ...cardHandlers,
  ...webhookHandlers,
  ...eventHandlers,
  ...apiKeyHandlers,
  ...clockHandlers,
  ...engineHandlers,
  ...paymentTokenHandlers,
  ...mandateHandlers,
} satisfies NeutralHandlers;

/** The neutral record (or page of records) an operation's handler returns. */
export type NeutralOutput<Id extends NeutralOperationId> = Awaited<ReturnType<(typeof builtInHandlers)[Id]>>;

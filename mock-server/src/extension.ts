import type { EventListener } from './core/tenant.js';
import type { HandlerMap } from './http/operation-handler.js';

/**
 * A bundle of behaviour plugged into the mock: operation handlers (by operationId) and an observer of every
 * stored event (for reactions such as scheduling a card's TTL expiry when `card.created` is stored).
 * The platform's resources are one extension; the spend and risk engine is another.
 */
export interface MockExtension {
  name: string;
  handlers?: HandlerMap;
  onEvent?: EventListener;
}

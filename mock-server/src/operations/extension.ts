import type { TenantListeners } from '../core/tenant.js';
import type { HandlerMap } from './handler-map.js';

/**
 * A bundle of behaviour plugged into the mock: operation handlers (by operationId), an observer of every
 * stored event (for reactions such as scheduling a card's TTL expiry when `card.created` is stored), an
 * observer of policy changes (for reactions such as moving that expiry) and one of restored tenants.
 */
export interface MockExtension extends TenantListeners {
  /** Names the extension in errors and logs. */
  name: string;
  /** Operation handlers by operationId; a later extension's handler replaces an earlier one's. */
  handlers?: HandlerMap;
}

import type { EventListener, PolicyChangeListener, RestoreListener, TenantHooks, TenantListeners } from '../core/tenant.js';

/**
 * Who reacts to what happens in a tenant, by name: this is where every listener a tenant calls at run time
 * (`Tenant.emit`, `policyChanged`, a restore) is registered, in the order they are called.
 */
export interface TenantReactions {
  /** Webhook fan-out: one delivery per subscribed webhook (webhooks/dispatcher.ts `onEvent`, `onRestore`). */
  webhooks: Pick<TenantListeners, 'onEvent' | 'onRestore'>;
  /** The spend and risk engine's reactions (engine/reactions.ts), then each extension's (`MockExtension`). */
  extensions: readonly TenantListeners[];
  /** The in-process event feed, `mock.events.subscribe` (testkit/events.ts `notify`): told last, once all reacted. */
  serverEvents: EventListener;
}

/** The tenant hooks of a mock, from its named reactions. */
export function tenantHooks(reactions: TenantReactions): Omit<TenantHooks, 'changes'> {
  const { webhooks, extensions, serverEvents } = reactions;
  const present = <T>(listener: T | undefined): listener is T => listener !== undefined;
  return {
    onEvent: new Set<EventListener>(
      [webhooks.onEvent, ...extensions.map((extension) => extension.onEvent), serverEvents].filter(present),
    ),
    onPolicyChanged: new Set<PolicyChangeListener>(extensions.map((extension) => extension.onPolicyChanged).filter(present)),
    onRestore: new Set<RestoreListener>(
      [webhooks.onRestore, ...extensions.map((extension) => extension.onRestore)].filter(present),
    ),
  };
}

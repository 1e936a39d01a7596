import type { EventListener, PolicyChangeListener, RestoreListener } from './core/tenant.js';
import type { HandlerMap } from './http/operation-handler.js';

/**
 * A bundle of behaviour plugged into the mock: operation handlers (by operationId), an observer of every
 * stored event (for reactions such as scheduling a card's TTL expiry when `card.created` is stored) and an
 * observer of policy changes (for reactions such as moving that expiry).
 * The platform's resources are one extension; the spend and risk engine is another.
 */
export interface MockExtension {
  /** Names the extension in errors and logs. */
  name: string;
  /** Operation handlers by operationId; a later extension's handler replaces an earlier one's. */
  handlers?: HandlerMap;
  /** Called with every event as it is stored, with its tenant. */
  onEvent?: EventListener;
  /** Called when the policy or limits of a customer, agent or card changed (no event tells that). */
  onPolicyChanged?: PolicyChangeListener;
  /**
   * Called for each tenant restored from saved state (`restore`, `--state`), once its records are in place: work
   * scheduled on the test clock is not saved, so an extension that schedules some arms it again here.
   */
  onRestore?: RestoreListener;
}

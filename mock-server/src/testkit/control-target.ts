import type { ServerClock } from '../core/server-clock.js';
import type { MockSnapshot } from '../core/state/model.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import type { ServerEvents } from './events.js';
import type { MockFaults } from './faults.js';

/** What the control API drives: the mock's own control surface (a MockServer is one). */
export interface ControlTarget {
  reset(): void | Promise<void>;
  readState(): Promise<MockSnapshot>;
  restore(snapshot: MockSnapshot): void | Promise<void>;
  idle(): Promise<void>;
  clock: ServerClock;
  events: ServerEvents;
  faults: MockFaults;
  /** The tenant and variant of a key the mock knows, creating nothing. */
  knownTenant(apiKey: string): { tenant: Tenant; variant: Variant } | undefined;
  /** Runs `read` with the key's organization up to date (under its lock with a shared state). */
  inOrganization<T>(apiKey: string, read: () => T): Promise<T>;
}

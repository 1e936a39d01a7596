import type { BaseClock } from './clock.js';
import { OffsetClock } from './clock.js';
import { Collection, type CollectionOptions } from './collection.js';
import { EventLog, type EventVisibility, type MockEvent, type Mode } from './event-log.js';
import { IdempotencyCache } from './idempotency.js';
import type { IdFactory } from './ids.js';
import { Scheduler } from './scheduler.js';

/**
 * Everything one organization owns in one mode: its objects, its test clock and due work, its events and its
 * idempotency keys. Nothing here is shared with another organization or the other mode.
 */
export class Tenant {
  readonly clock: OffsetClock;
  readonly scheduler: Scheduler;
  readonly idempotency: IdempotencyCache;
  readonly events: EventLog;
  readonly #collections = new Map<string, Collection<{ id: string }>>();
  #seq = 0;

  constructor(
    readonly organizationId: string,
    readonly mode: Mode,
    readonly ids: IdFactory,
    baseClock: BaseClock,
    initialOffsetMs: number,
    private readonly hooks: TenantHooks,
    naming: EventVisibility,
  ) {
    this.clock = new OffsetClock(baseClock, initialOffsetMs);
    this.scheduler = new Scheduler(this.clock);
    this.idempotency = new IdempotencyCache(this.clock);
    this.events = new EventLog(this.#nextSeq, naming);
  }

  /** The named collection, created with `options` on first use. See `defineCollection`. */
  collection<T extends { id: string }>(name: string, options?: CollectionOptions<T>): Collection<T> {
    let collection = this.#collections.get(name);
    if (collection === undefined) {
      collection = new Collection<T>(this.#nextSeq, options) as unknown as Collection<{ id: string }>;
      this.#collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /**
   * Records an event of the catalog type `type` at the current test-clock time, then tells every event listener
   * (webhook fan-out, test observers, engine hooks) in registration order.
   */
  emit(type: string, data: Record<string, unknown>, options: { generalData?: Record<string, unknown> } = {}): MockEvent {
    const event = this.events.append({
      id: this.ids.next('event'),
      type,
      organizationId: this.organizationId,
      mode: this.mode,
      createdAt: this.clock.now(),
      data,
      generalData: options.generalData,
    });
    for (const listener of this.hooks.onEvent) listener(event, this);
    return event;
  }

  /**
   * Tells every policy-change listener that the spend controls (policy or limits) of a customer, agent or card
   * changed. The platform's domain functions call this; reactions such as moving a card's TTL subscribe to it.
   */
  policyChanged(change: PolicyChange): void {
    for (const listener of this.hooks.onPolicyChanged) listener(change, this);
  }

  now(): number {
    return this.clock.now();
  }

  dispose(): void {
    this.scheduler.dispose();
  }

  // One counter for every collection: creation order is comparable across types and cursors stay positional.
  readonly #nextSeq = (): number => ++this.#seq;
}

/**
 * A typed handle on a collection every tenant has. Define one per record type, next to the code that owns it:
 * `export const cards = defineCollection<CardRecord>('cards', { filters: { agentId: (c) => c.agentId } });`
 * then `cards.of(tenant).get(id)`.
 */
export function defineCollection<T extends { id: string }>(name: string, options: CollectionOptions<T> = {}) {
  return {
    name,
    of(tenant: Tenant): Collection<T> {
      return tenant.collection<T>(name, options);
    },
  };
}

/** Observes every event of every tenant, right after it is stored. */
export type EventListener = (event: MockEvent, tenant: Tenant) => void;

/** Whose spend controls changed. The platform emits no event for it, so it has a hook of its own. */
export interface PolicyChange {
  owner: 'customer' | 'agent' | 'card';
  id: string;
}

/** Observes every policy change of every tenant, right after it is stored. */
export type PolicyChangeListener = (change: PolicyChange, tenant: Tenant) => void;

/** The observers every tenant reports to (the server's extensions, webhook fan-out, test observers). */
export interface TenantHooks {
  onEvent: ReadonlySet<EventListener>;
  onPolicyChanged: ReadonlySet<PolicyChangeListener>;
}

export type { MockEvent, Mode };

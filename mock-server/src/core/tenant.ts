import type { BaseClock } from './clock.js';
import { OffsetClock } from './clock.js';
import { Collection, type CollectionOptions } from './collection.js';
import { EventLog, type EventVisibility } from './event-log.js';
import type { AnyStoredEvent, EventData, Mode, StoredEvent, StoredEventType } from './event-types.js';
import { IdempotencyCache } from './idempotency.js';
import type { IdFactory } from './ids.js';
import { Scheduler } from './scheduler.js';

/**
 * Everything one organization owns in one mode: its objects, its test clock and due work, its events and its
 * idempotency keys. Nothing here is shared with another organization or the other mode.
 */
export class Tenant {
  /** The tenant's test clock: wall time (or the frozen instant) plus what was advanced. */
  readonly clock: OffsetClock;
  /** Work due at a test-clock time (`scheduler.schedule(at, job)`): expiries, webhook retries. */
  readonly scheduler: Scheduler;
  /** Answers kept by `Idempotency-Key` for 24 hours of the test clock. */
  readonly idempotency: IdempotencyCache;
  /** The tenant's stored events, oldest first. */
  readonly events: EventLog;
  /** Everything attached to this tenant by a slot (collections and working state), by slot name. */
  readonly #slots = new Map<string, unknown>();
  #seq = 0;

  /**
   * @param organizationId - The organization (`org_...`) the keys of this tenant belong to.
   * @param mode - `test` or `live`: the mode of those keys.
   * @param ids - Makes the tenant's object and event ids.
   */
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

  /**
   * The state a slot attaches to this tenant, created on first use. Collections (`defineCollection`) and working
   * state (`defineTenantState`) are attached this one way, so everything a tenant holds is found in one place.
   */
  attach<T>(slot: TenantSlot<T>): T {
    // Slot names are unique, so what is stored under one is that slot's state.
    let state = this.#slots.get(slot.name) as T | undefined;
    if (state === undefined) {
      state = slot.create(this);
      this.#slots.set(slot.name, state);
    }
    return state;
  }

  /** A new collection of this tenant: every collection shares one sequence counter (see #nextSeq). */
  newCollection<T extends { id: string }>(options: CollectionOptions<T>): Collection<T> {
    return new Collection<T>(this.#nextSeq, options);
  }

  /**
   * Records an event at the current test-clock time, then tells every event listener (webhook fan-out, test
   * observers, engine hooks) in registration order. `data` is typed by `type` from the spec: everything either
   * variant's schema of that event holds (see EventData).
   */
  emit<T extends StoredEventType>(type: T, data: EventData<T>): StoredEvent<T> {
    const event: StoredEvent<T> = {
      id: this.ids.next('event'),
      type,
      organizationId: this.organizationId,
      mode: this.mode,
      createdAt: this.clock.now(),
      data,
    };
    // StoredEvent<T> for a generic T is one member of the AnyStoredEvent union; TypeScript cannot see that itself.
    const stored = event as unknown as AnyStoredEvent;
    this.events.append(stored);
    for (const listener of this.hooks.onEvent) listener(stored, this);
    return event;
  }

  /**
   * Tells every policy-change listener that the spend controls (policy or limits) of a customer, agent or card
   * changed. The platform's domain functions call this; reactions such as moving a card's TTL subscribe to it.
   */
  policyChanged(change: PolicyChange): void {
    for (const listener of this.hooks.onPolicyChanged) listener(change, this);
  }

  /** The test-clock time, in epoch milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /** Stops the tenant's scheduled work (on `reset()`). */
  dispose(): void {
    this.scheduler.dispose();
  }

  // One counter for every collection: creation order is comparable across types and cursors stay positional.
  readonly #nextSeq = (): number => ++this.#seq;
}

/** Something every tenant holds one of, made on first use: a collection or a piece of working state. */
export interface TenantSlot<T> {
  /** Unique across the mock: what the state is kept under in each tenant. */
  readonly name: string;
  /** Makes a tenant's state on first use. */
  create(tenant: Tenant): T;
}

/** A slot with its accessor: `slot.of(tenant)`. */
export interface TenantState<T> extends TenantSlot<T> {
  /** This slot's state of the tenant, created on first use. */
  of(tenant: Tenant): T;
}

/**
 * Working state every tenant has (indexes, running aggregates, settings), next to the code that owns it:
 * `export const engineState = defineTenantState('engine', () => new EngineTenantState());` then
 * `engineState.of(tenant)`. Names are unique across the mock.
 */
export function defineTenantState<T>(name: string, create: (tenant: Tenant) => T): TenantState<T> {
  const slot: TenantState<T> = { name, create, of: (tenant) => tenant.attach(slot) };
  return slot;
}

/**
 * A typed handle on a collection every tenant has. Define one per record type, next to the code that owns it:
 * `export const cards = defineCollection<CardRecord>('cards', { filters: { agentId: (c) => c.agentId } });`
 * then `cards.of(tenant).get(id)`.
 */
export function defineCollection<T extends { id: string }>(
  name: string,
  options: CollectionOptions<T> = {},
): TenantState<Collection<T>> {
  return defineTenantState(name, (tenant) => tenant.newCollection<T>(options));
}

/** Observes every event of every tenant, right after it is stored. */
export type EventListener = (event: AnyStoredEvent, tenant: Tenant) => void;

/** Whose spend controls changed. The platform emits no event for it, so it has a hook of its own. */
export interface PolicyChange {
  /** The kind of object whose policy or limits changed. */
  owner: 'customer' | 'agent' | 'card';
  /** Its id. */
  id: string;
}

/** Observes every policy change of every tenant, right after it is stored. */
export type PolicyChangeListener = (change: PolicyChange, tenant: Tenant) => void;

/** The observers every tenant reports to (the server's extensions, webhook fan-out, test observers). */
export interface TenantHooks {
  onEvent: ReadonlySet<EventListener>;
  onPolicyChanged: ReadonlySet<PolicyChangeListener>;
}

export type { Mode };

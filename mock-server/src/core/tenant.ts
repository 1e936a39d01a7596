import { type BaseClock, OffsetClock } from './clock.js';
import { Collection, type CollectionOptions } from './collection.js';
import { EventLog, type EventVisibility } from './event-log.js';
import type { AnyStoredEvent, EventData, Mode, StoredEvent, StoredEventType } from './event-types.js';
import { IdempotencyCache } from './idempotency.js';
import type { IdFactory } from './ids.js';
import { Scheduler } from './scheduler.js';
import type { TenantHeader } from './state/model.js';
import type { TenantGate, TenantUpdate } from './state/shared-gate.js';

/** Where tenants report the changes a durable store writes (see state/change-tracker.ts). */
export interface TenantChangeSink {
  record(tenant: Tenant, collection: string, id: string, seq: number): void;
  header(tenant: Tenant): void;
  idempotency(tenant: Tenant, key: string): void;
  /** Server-wide state changed (the shared clock advance). */
  server(): void;
}

/**
 * Everything one organization owns in one mode: its objects, its test clock and due work, its events and its
 * idempotency keys. Nothing here is shared with another organization or the other mode.
 *
 * What persists is held in collections of plain records (named by their slots) plus the header (clock offset,
 * sequence counter) and the idempotency keys; everything else a slot attaches is derived from those records
 * (docs/standalone-server.md#the-state-model).
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
  /** The persistent collections, by name (the event log's is `events`). */
  readonly #collections = new Map<string, Collection<{ id: string }>>();
  /** Collections whose old records are dropped (see CollectionOptions.retention). */
  readonly #retained: Collection<{ id: string }>[] = [];
  #seq = 0;
  #detached = false;
  /** Wall time of the last request, for idle eviction. */
  lastActiveAt = Date.now();
  /** Requests being answered for this tenant: it does not leave memory while one is. */
  requestsInFlight = 0;

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
    const changes = hooks.changes;
    this.clock = new OffsetClock(baseClock, initialOffsetMs, changes ? () => changes.header(this) : undefined);
    const gate = hooks.gate;
    this.scheduler = new Scheduler(
      this.clock,
      gate && { fire: () => gate.fire(this), outside: (wait) => gate.outside(this, wait) },
    );
    this.idempotency = new IdempotencyCache(this.clock, changes ? (key) => changes.idempotency(this, key) : undefined);
    this.events = new EventLog(naming, (options) => this.newCollection('events', options));
    changes?.header(this);
  }

  /** @internal Its organization's lock, when several processes share the state (undefined in one process). */
  get gate(): TenantGate<Tenant> | undefined {
    return this.hooks.gate;
  }

  /** `org_...:test`: how the saved state names this tenant. */
  get key(): string {
    return `${this.organizationId}:${this.mode}`;
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

  /**
   * A new persistent collection of this tenant, named for the saved state. Every collection shares one sequence
   * counter (see #nextSeq); its changes are reported to the durable store when there is one.
   */
  newCollection<T extends { id: string }>(name: string, options: CollectionOptions<T>): Collection<T> {
    const changes = this.hooks.changes;
    const collection = new Collection<T>(
      this.#nextSeq,
      options,
      changes ? (id, seq) => changes.record(this, name, id, seq) : undefined,
    );
    this.#collections.set(name, collection as unknown as Collection<{ id: string }>);
    if (options.retention) this.#retained.push(collection as unknown as Collection<{ id: string }>);
    return collection;
  }

  /** A persistent collection by name, when it exists in this tenant. */
  collection(name: string): Collection<{ id: string }> | undefined {
    return this.#collections.get(name);
  }

  /** The persistent collections that exist, by name. */
  collections(): IterableIterator<[string, Collection<{ id: string }>]> {
    return this.#collections.entries();
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

  /**
   * Drops the records older than their collection's retention (events and delivery records: 30 days of this
   * tenant's test clock). Records arrive in time order, so only the oldest are looked at: nothing when none is due,
   * and each record is dropped once, whatever the history.
   */
  prune(): void {
    const now = this.clock.now();
    for (const collection of this.#retained) {
      const retention = collection.retention;
      if (!retention) continue;
      const cutoff = now - retention.ms;
      for (let oldest = collection.oldest(); oldest && retention.at(oldest) < cutoff; oldest = collection.oldest()) {
        collection.delete(oldest.id);
      }
    }
  }

  /** What the saved state keeps of this tenant besides its records. */
  header(): TenantHeader {
    return { organizationId: this.organizationId, mode: this.mode, clockOffsetMs: this.clock.offsetMs, seq: this.#seq };
  }

  /**
   * @internal Stored records put into this tenant in place (a shared store's copy brought up to date): working state
   * is derived again on first use, derived work re-armed by the restore hooks; nothing is reported as a change.
   */
  adopt(update: TenantUpdate): void {
    if (update.whole) for (const collection of this.#collections.values()) collection.clear();
    this.#seq = update.header.seq;
    this.clock.adopt(update.header.clockOffsetMs);
    // Gone first: a row in the store is the latest state of its record (deleted, then made again, it is there).
    for (const [name, id] of update.deletes) this.collection(name)?.adopt(id, 0, undefined);
    for (const [name, seq, record] of update.puts) {
      const slot = this.collection(name) ? undefined : collectionSlots.get(name);
      if (slot) this.attach(slot);
      const collection = this.collection(name);
      if (!collection) throw new Error(`The saved state has a collection "${name}" that no loaded module defines.`);
      collection.adopt(record.id, seq, record);
      if (seq > this.#seq) this.#seq = seq;
    }
    this.idempotency.adopt(update.idempotency, update.forgotten, update.whole);
    for (const name of [...this.#slots.keys()]) if (!this.#collections.has(name)) this.#slots.delete(name);
    this.scheduler.clearDerived();
  }

  /** Whether this tenant left the mock (reset, idle, a refused commit): what still reaches it changes nothing kept. */
  get detached(): boolean {
    return this.#detached;
  }

  /** Stops the tenant's scheduled work and detaches it (it left memory). */
  dispose(): void {
    this.#detached = true;
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

/** Every collection slot defined so far, by name: what a restore finds a saved collection's definition in. */
const collectionSlots = new Map<string, TenantSlot<unknown>>();

/**
 * Working state every tenant has (indexes, running aggregates, settings), next to the code that owns it:
 * `export const engineState = defineTenantState('engine', () => new EngineTenantState());` then
 * `engineState.of(tenant)`. Names are unique across the mock. It is not saved: `create` derives it from the
 * tenant's collections (it runs on first use, so after a restore it sees the restored records).
 */
export function defineTenantState<T>(name: string, create: (tenant: Tenant) => T): TenantState<T> {
  const slot: TenantState<T> = { name, create, of: (tenant) => tenant.attach(slot) };
  return slot;
}

/**
 * A typed handle on a collection every tenant has. Define one per record type, next to the code that owns it:
 * `export const cards = defineCollection<CardRecord>('cards', { filters: { agentId: (c) => c.agentId } });`
 * then `cards.of(tenant).get(id)`. Its records are plain JSON and part of the saved state, under `name`.
 */
export function defineCollection<T extends { id: string }>(
  name: string,
  options: CollectionOptions<T> = {},
): TenantState<Collection<T>> {
  const slot = defineTenantState(name, (tenant) => tenant.newCollection<T>(name, options));
  collectionSlots.set(name, slot as TenantSlot<unknown>);
  return slot;
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

/** Called for each tenant brought back from saved state, once its records are in: schedules its due work again. */
export type RestoreListener = (tenant: Tenant) => void;

/** Reactions to every tenant's events, policy changes and restores: an extension's, the engine's (engine/reactions.ts). */
export interface TenantListeners {
  /** Called with every event as it is stored, with its tenant. */
  onEvent?: EventListener | undefined;
  /** Called when the policy or limits of a customer, agent or card changed (no event tells that). */
  onPolicyChanged?: PolicyChangeListener | undefined;
  /** Called for each tenant restored from saved state: scheduled work is not saved, so it is armed again here. */
  onRestore?: RestoreListener | undefined;
}

/** The observers every tenant reports to, in registration order (composition/tenant-hooks.ts builds them). */
export interface TenantHooks {
  onEvent: ReadonlySet<EventListener>;
  onPolicyChanged: ReadonlySet<PolicyChangeListener>;
  onRestore?: ReadonlySet<RestoreListener> | undefined;
  /** Where changes go when a durable store is attached. */
  changes?: TenantChangeSink | undefined;
  /** The organizations' locks, when several processes share the state. */
  gate?: TenantGate<Tenant> | undefined;
}

export type { Mode };

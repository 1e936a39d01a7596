import type { BaseClock } from '../clock.js';
import { Directory } from '../directory.js';
import { copyJson } from '../json-copy.js';
import type { EventNaming } from '../event-naming.js';
import type { IdFactory } from '../ids.js';
import type { SeededRandom } from '../seeded-random.js';
import type { TenantHooks } from '../tenant.js';
import type { StateJournal } from './change-tracker.js';
import { type DurableState, durableState, stateLines } from './durable-state.js';
import { type MockSnapshot, STATE_FORMAT, STATE_VERSION, type ServerState } from './model.js';

export interface MockStateOptions {
  ids: IdFactory;
  baseClock: BaseClock;
  naming: EventNaming;
  /** The seeded id generator, whose position the state keeps; undefined for random ids. */
  seeded: SeededRandom | undefined;
  /** The listeners every tenant reports to (composition/tenant-hooks.ts); the store's change sink is added here. */
  hooks: Omit<TenantHooks, 'changes'>;
  /** The durable store (`MockServerOptions.journal`, the Node server's `--state`), if any. */
  journal: StateJournal | undefined;
}

/**
 * Everything a mock holds, and the one place that replaces it: the live directory of tenants (made anew on reset and
 * restore), the server-wide state (the shared clock advance, the seeded ids' position) and, with a durable store, the
 * wiring that commits each change and reads tenants back (durable-state.ts).
 */
export class MockState {
  readonly durable: DurableState;
  readonly #options: MockStateOptions;
  readonly #hooks: TenantHooks;
  #directory: Directory;
  #stopSweep: (() => void) | undefined;

  constructor(options: MockStateOptions) {
    this.#options = options;
    const { baseClock, journal, seeded } = options;
    this.durable = durableState(journal, {
      directory: () => this.#directory,
      serverState: () => this.serverState(),
      serverNow: () => baseClock.now() + this.#directory.sharedOffsetMs,
      frozen: baseClock.frozen,
      putBackServer: (saved) => {
        this.#directory.sharedOffsetMs = saved.sharedOffsetMs;
        if (seeded && saved.random) seeded.moveTo(saved.random);
      },
      onGeneration: () => this.#replaceDirectory(),
    });
    this.#hooks = { ...options.hooks, changes: this.durable.changes, gate: this.durable.shared?.gate };
    this.#directory = this.#newDirectory();
    journal?.attach?.({
      lines: () => stateLines({ directory: () => this.#directory, serverState: () => this.serverState() }),
      restore: (snapshot) => this.#adopt(snapshot),
      commit: () => this.durable.commit(),
    });
    this.durable.start();
  }

  /** Every organization and mode in memory, found by API key (a new one after `reset` and `restore`). */
  get directory(): Directory {
    return this.#directory;
  }

  /** What the state keeps beside its tenants (read while the directory is first made, hence the default). */
  serverState(): ServerState {
    return { sharedOffsetMs: this.#directory?.sharedOffsetMs ?? 0, random: this.#options.seeded?.position() ?? null };
  }

  /**
   * Forgets every organization, key, object, event and pending delivery (and so does the store); a promise with a store
   * several processes share.
   */
  reset(): void | Promise<void> {
    if (this.durable.shared) return this.durable.shared.reset();
    this.#replaceDirectory();
    this.durable.reset();
  }

  /** A copy of the whole state: later changes to the live records do not reach it. */
  snapshot(): MockSnapshot {
    return copyJson(this.durable.snapshot());
  }

  /** The whole state, for every store: with one several processes share, read from it. */
  async readState(): Promise<MockSnapshot> {
    return this.durable.shared ? this.durable.shared.read() : this.snapshot();
  }

  /** Replaces the state with a copy of `snapshot`, and the store's with it (a promise with a shared store). */
  restore(snapshot: MockSnapshot): void | Promise<void> {
    if (snapshot.format !== STATE_FORMAT || snapshot.version !== STATE_VERSION) {
      throw new TypeError(`Not a ${STATE_FORMAT} version ${STATE_VERSION} snapshot.`);
    }
    if (this.durable.shared) return this.durable.shared.replace(copyJson(snapshot));
    this.#adopt(copyJson(snapshot));
    try {
      this.durable.restored();
    } catch (error) {
      // Not stored: the store keeps its state, and memory follows it again (tenants are read back as needed).
      this.#replaceDirectory();
      throw error;
    }
  }

  /** Resolves when no due work is left, every started webhook attempt has finished and what they changed is committed. */
  async idle(): Promise<void> {
    if (this.durable.shared) return this.durable.shared.idle();
    for (const tenant of [...this.#directory.tenants()]) await tenant.scheduler.idle();
    await this.durable.settled();
  }

  /** Takes organizations idle for `idleMs` out of memory from now on, on a timer that keeps no process alive. */
  sweepIdle(idleMs: number): void {
    const sweep = setInterval(() => this.#directory.evictIdle(idleMs), Math.min(Math.max(idleMs / 2, 1_000), 60_000));
    (sweep as { unref?: () => void }).unref?.();
    this.#stopSweep = () => clearInterval(sweep);
  }

  /**
   * Stops due work for shutdown: scheduled work never starts again, what runs gets until `deadlineMs` to finish, and
   * what it changed is committed. Resolves whether everything finished in time.
   */
  async stop(deadlineMs: number): Promise<boolean> {
    this.#stopSweep?.();
    this.durable.stop();
    const tenants = [...this.#directory.tenants()];
    for (const tenant of tenants) tenant.scheduler.stop();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = await Promise.race([
      Promise.all(tenants.map((tenant) => tenant.scheduler.settled())).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    try {
      this.durable.commit();
    } catch {
      // Refused: those changes belonged to no answer (deliveries stay pending, due work runs again after restart).
    }
    await this.durable.settled();
    return drained;
  }

  /** Replaces the state; `snapshot` is adopted as is (its records become the live ones). */
  #adopt(snapshot: MockSnapshot): void {
    if (snapshot.format !== STATE_FORMAT || snapshot.version !== STATE_VERSION) {
      throw new TypeError(`Not a ${STATE_FORMAT} version ${STATE_VERSION} snapshot.`);
    }
    const directory = this.#replaceDirectory();
    const { seeded } = this.#options;
    const restoreListeners = this.#hooks.onRestore ?? [];
    this.durable.quietly(() => {
      directory.sharedOffsetMs = snapshot.sharedOffsetMs;
      if (seeded && snapshot.random) seeded.moveTo(snapshot.random);
      const restored = snapshot.tenants.map((saved) => directory.restoreTenant(saved));
      for (const tenant of restored) for (const listener of restoreListeners) listener(tenant);
    });
    // Work that fell due while the state was stored (a webhook retry, an expiry) runs now, and is recorded.
    for (const tenant of [...directory.tenants()]) tenant.scheduler.runDue();
  }

  #replaceDirectory(): Directory {
    this.#directory.dispose();
    this.#directory = this.#newDirectory();
    return this.#directory;
  }

  #newDirectory(): Directory {
    const { ids, baseClock, naming } = this.#options;
    return new Directory(ids, baseClock, this.#hooks, naming, this.durable.tenantStore);
  }
}

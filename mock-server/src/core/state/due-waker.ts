import type { Directory } from '../directory.js';
import type { Tenant } from '../tenant.js';
import type { StoredTenants } from './stored-tenants.js';

export interface DueWakerOptions {
  directory(): Directory;
  /** The base clock plus the server-wide advance: the scale the store keeps due times on. */
  serverNow(): number;
  /** Frozen clocks move only when advanced: no timer then, only the wake at start and advances. */
  frozen: boolean;
  /** Tenants read per turn of the event loop. */
  slice: number;
}

/** The longest a timer can wait (setTimeout's limit); a later wake is re-armed when it fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Runs the scheduled work (webhook retries, time-to-live and intent expiries) of tenants a store keeps out of memory,
 * when it falls due: the store indexes each tenant's next due time, one timer waits for the earliest, and a tenant
 * due is read, its work run, and, once its attempts settle with no request having used it meanwhile, let go again.
 * Work that fell due while the server was down runs at start, a few tenants per turn of the event loop.
 */
export class DueWaker {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #waking = false;

  constructor(
    private readonly stored: StoredTenants,
    private readonly options: DueWakerOptions,
  ) {}

  /** Wakes what is due now (soon, not in the caller's turn), then waits for the next. */
  start(): void {
    this.#soon();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The set of tenants out of memory or their due times changed: the timer waits for the new earliest. */
  rearm(): void {
    if (this.#stopped || this.#waking) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.options.frozen) return;
    const next = this.stored.nextDue(this.#inMemory);
    if (next === undefined) return;
    const delay = Math.min(Math.max(next - this.options.serverNow(), 0), MAX_DELAY_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#wake();
    }, delay);
    // Work hours away must not keep a test process or CLI alive.
    this.#timer.unref?.();
  }

  /** Reads every tenant out of memory with work due by `at` (a server-wide advance is about to reach it). */
  loadDueBy(at: number): Tenant[] {
    const loaded: Tenant[] = [];
    for (;;) {
      const keys = this.stored.dueBy(at, this.#inMemory, this.options.slice);
      for (const key of keys) {
        const tenant = this.options.directory().load(key);
        if (tenant) loaded.push(tenant);
      }
      if (keys.length < this.options.slice) return loaded;
    }
  }

  readonly #inMemory = (tenantKey: string): boolean => this.options.directory().has(tenantKey);

  #soon(): void {
    if (this.#stopped) return;
    setTimeout(() => this.#wake(), 0);
  }

  #wake(): void {
    if (this.#stopped) return;
    this.#waking = true;
    let keys: string[];
    try {
      keys = this.stored.dueBy(this.options.serverNow(), this.#inMemory, this.options.slice);
      for (const key of keys) {
        const tenant = this.options.directory().load(key);
        if (tenant) void this.#run(tenant);
      }
    } catch (error) {
      // A tenant that cannot be read is reported by the store (damage stops the server); the others still run.
      console.error('[cardrail-mock] due work of a stored organization could not start', error);
      keys = [];
    } finally {
      this.#waking = false;
    }
    if (keys.length === this.options.slice) this.#soon();
    else this.rearm();
  }

  /** Runs a woken tenant's due work; once its attempts settle and no request used it meanwhile, it leaves memory. */
  async #run(tenant: Tenant): Promise<void> {
    const lastActive = tenant.lastActiveAt;
    for (let round = 0; round < 3 && !tenant.detached; round++) {
      tenant.scheduler.runDue();
      tenant.prune();
      await tenant.scheduler.settled();
      if (tenant.detached || tenant.lastActiveAt !== lastActive) return;
      if (this.options.directory().release(tenant)) return;
    }
  }
}

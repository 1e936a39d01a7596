import type { Directory } from '../directory.js';
import { tenantsOf } from './copy-refresh.js';
import type { OrgGate } from './org-gate.js';
import type { SharedStore } from './shared-store.js';

export interface SharedWakerOptions {
  directory(): Directory;
  /** The base clock plus the server-wide advance: the scale the store keeps due times on. */
  serverNow(): number;
  /** Frozen clocks move only when advanced: due work is looked for at start and on advances, not on a timer. */
  frozen: boolean;
}

/** How often each process looks for due work of organizations and for expired claims, in milliseconds. */
const TICK_MS = 1_000;
/** Organizations looked at per tick. */
const SLICE = 16;

/**
 * Scheduled work on a shared store that no timer in this process holds (docs/standalone-server.md#scheduled-work-exactly-once):
 * once a second, the tenants whose work is due (from the store's due-time index) are entered and their due work run,
 * whichever process holds them in memory, and organizations with an expired claim (a webhook attempt whose process died
 * or froze) get the claim back and their work armed again, so that another process sends the attempt, with the same
 * `webhook-id`. Work runs under the organization's lock on a fresh copy, so a piece of work another process already ran
 * is not there any more: waking an organization twice costs a lock, never a second run.
 */
export class SharedWaker {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;
  #first = true;
  #failing = false;
  readonly #waking = new Set<string>();

  constructor(
    private readonly store: SharedStore,
    private readonly gate: OrgGate,
    private readonly options: SharedWakerOptions,
  ) {}

  start(): void {
    this.#arm(0);
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Runs the work due by `at` (a server-wide advance is about to reach it) of every organization that has some. */
  async wakeDueBy(at: number): Promise<void> {
    for (const org of await this.#dueOrganizations(at)) await this.#wake(org, false);
  }

  #arm(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => void this.#tick(), delay);
    // Work hours away must not keep a test process or CLI alive.
    this.#timer.unref?.();
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    try {
      const due = this.options.frozen && !this.#first ? [] : await this.#dueOrganizations(this.options.serverNow(), SLICE);
      const expired = await this.store.expiredClaims(SLICE);
      this.#first = false;
      this.#failing = false;
      for (const org of new Set([...due, ...expired])) void this.#wake(org, expired.includes(org));
    } catch (error) {
      // The store is away: said once per outage; the next tick tries again.
      if (!this.#failing) console.error(`[cardrail-mock] scheduled work is not looked for: ${String(error)}`);
      this.#failing = true;
    }
    this.#arm(TICK_MS);
  }

  async #dueOrganizations(at: number, limit = 1_000): Promise<string[]> {
    const keys = await this.store.dueTenants(at, limit);
    return [...new Set(keys.map((key) => key.slice(0, key.lastIndexOf(':'))))];
  }

  async #wake(org: string, expired: boolean): Promise<void> {
    if (this.#waking.has(org) || this.#stopped) return;
    this.#waking.add(org);
    try {
      await this.gate.run(org, () => {
        const directory = this.options.directory();
        if (expired) this.gate.dropExpired(org);
        for (const tenant of tenantsOf(directory, org)) {
          // A claim given back: the work it covered is armed again from the records, due at once.
          if (expired) {
            tenant.scheduler.clearDerived();
            directory.refreshed(tenant);
          }
          tenant.scheduler.runDue();
          tenant.prune();
        }
      });
    } catch (error) {
      console.error(`[cardrail-mock] due work of ${org} did not run: ${String(error)}`);
    } finally {
      this.#waking.delete(org);
    }
  }
}

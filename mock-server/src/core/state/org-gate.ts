import type { Directory } from '../directory.js';
import { StateUnavailable } from '../errors.js';
import type { Tenant } from '../tenant.js';
import type { ChangeTracker } from './change-tracker.js';
import { tenantsOf } from './copy-refresh.js';
import { Copies } from './copies.js';
import { runFirstRequest } from './first-request.js';
import type { TenantGate, WorkClaim } from './shared-gate.js';
import { Batch } from './gate-batch.js';
import type { OrganizationSession, SharedStore } from './shared-store.js';

/** The most requests (and pieces of due work) one batch of an organization runs before it commits. */
const MAX_BATCH = 64;

/** What the gate needs of the mock it serves. */
export interface OrgGateHost {
  store: SharedStore;
  tracker: ChangeTracker;
  directory(): Directory;
  /** Another process reset or restored the state: every copy in memory goes (a new directory). */
  onGeneration(): void;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
  /** On its way back into the lock after waiting outside it (`outside`): it still has work to unwind. */
  returning: boolean;
}

interface Queue {
  open: Batch | undefined;
  opening: boolean;
  waiting: Waiter[];
}

/**
 * Each organization's requests in one order across every process sharing the store
 * (docs/standalone-server.md#several-instances-on-one-database): a request, a piece of due work or a webhook attempt's
 * outcome runs under the organization's lock in the store, on a copy brought up to date first (the rows written since
 * its version), and its changes are committed before the lock is let go. Within this process, every participant
 * waiting when the lock is taken runs in that one transaction (group commit), and each learns of the commit after it.
 *
 * When the store cannot be reached, refuses a commit or leaves it in doubt, whatever the gate throws is a
 * StateUnavailable (answered 503 `state_not_saved`): a participant that could not enter, one whose batch was not
 * committed, and one waiting outside the lock whose batch was not committed or that could not come back. A participant
 * that could not come back still holds a seat, in a failed batch, until it has unwound: nothing it changes meanwhile is
 * kept, and the next batch reads the copy whole.
 */
export class OrgGate implements TenantGate<Tenant> {
  readonly #queues = new Map<string, Queue>();
  readonly #copies: Copies;
  /** Each key's organization (a key never changes hands). */
  readonly #owners = new Map<string, string>();
  /** Changes made to an organization with no batch open (a defect: they would be committed with a later batch). */
  strays = 0;

  constructor(private readonly host: OrgGateHost) {
    this.#copies = new Copies(host, () => {
      this.#owners.clear();
      host.onGeneration();
    });
  }

  /** Runs `work` under the organization's lock; resolves with its result once its batch is committed. */
  async run<T>(organizationId: string, work: () => T | Promise<T>): Promise<T> {
    await this.#enter(organizationId, false);
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await work() };
    } catch (error) {
      outcome = { error };
    }
    await this.#leave(organizationId).done;
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /**
   * Runs a request presenting a key under its organization's lock: the organization of a stored key, or, for a key no
   * organization holds, under a lock on the key so that its first request creates one organization whichever process
   * it reaches (and that process's commit stores the key).
   */
  async runForKey<T>(digest: string, work: () => T | Promise<T>): Promise<T> {
    const owner = this.#owners.get(digest) ?? (await this.host.store.organizationOfKey(digest));
    if (owner !== undefined) {
      this.#owners.set(digest, owner);
      return this.run(owner, work);
    }
    const opened = await this.host.store.openNewKey(digest);
    if ('owner' in opened) {
      this.#owners.set(digest, opened.owner);
      return this.run(opened.owner, work);
    }
    const { tracker } = this.host;
    const first = { tracker, directory: () => this.host.directory(), copies: this.#copies, where: this.host.store.where };
    return runFirstRequest(first, digest, opened.session, work, (org) => this.#owners.set(digest, org));
  }

  inside<R>(tenant: Tenant, work: (tenant: Tenant) => R): Promise<R | undefined> {
    return this.run(tenant.organizationId, () => {
      const directory = this.host.directory();
      const current = directory.has(tenant.key) ? directory.load(tenant.key) : undefined;
      return current ? work(current) : undefined;
    });
  }

  async outside<R>(tenant: Tenant, wait: () => Promise<R>): Promise<R> {
    const org = tenant.organizationId;
    const batch = this.#queues.get(org)?.open;
    // Not holding the lock (a wait outside any batch): nothing to let go.
    if (!batch || batch.active === 0) return wait();
    this.#leave(org);
    let outcome: { value: R } | { error: unknown };
    try {
      // The batch left is committed meanwhile: refused, it rejects with a StateUnavailable.
      const [, value] = await Promise.all([batch.done, wait()]);
      outcome = { value };
    } catch (error) {
      outcome = { error };
    }
    // Back under the lock; when the store cannot be reached, a StateUnavailable, with a seat in a failed batch.
    await this.#enter(org, true);
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  fire(tenant: Tenant): void {
    this.inside(tenant, (current) => {
      current.scheduler.runDue();
      current.prune();
    }).catch((error: unknown) => console.error(`[cardrail-mock] due work of ${tenant.key} did not run: ${String(error)}`));
  }

  claim(tenant: Tenant, work: string, leaseMs: number): WorkClaim | undefined {
    return this.#held(tenant).claim(work, leaseMs);
  }

  holds(tenant: Tenant, claim: WorkClaim): boolean {
    return this.#held(tenant).holds(claim);
  }

  release(tenant: Tenant, claim: WorkClaim): void {
    this.#held(tenant).release(claim);
  }

  /** Gives back every expired claim of the organization (their holders died or froze), in the batch that is open. */
  dropExpired(organizationId: string): void {
    this.#queues.get(organizationId)?.open?.dropExpired();
  }

  /** A change was recorded: it must belong to an organization whose batch is open here (or to a new one). */
  changed(tenant: Tenant): void {
    if (this.#queues.get(tenant.organizationId)?.open || !this.#copies.known(tenant.organizationId)) return;
    this.strays++;
    console.error(`[cardrail-mock] a change to ${tenant.key} outside its organization's lock (it waits for the next batch)`);
  }

  /** Whether an organization's lock is held or waited for here (it must not leave memory then). */
  busy(organizationId: string): boolean {
    const queue = this.#queues.get(organizationId);
    return queue !== undefined && (queue.open !== undefined || queue.opening || queue.waiting.length > 0);
  }

  /** An organization's copy left memory: the next batch reads it whole. */
  forget(organizationId: string): void {
    this.#copies.forget(organizationId);
  }

  /** Every copy went (a reset or restore): each is read whole when next used, and keys are looked up again. */
  forgetAll(): void {
    this.#copies.forgetAll();
    this.#owners.clear();
  }

  /** Resolves once no batch is open or waited for. */
  async settled(): Promise<void> {
    for (const [, queue] of this.#queues) if (queue.open) await queue.open.done.catch(() => undefined);
  }

  #held(tenant: Tenant): Batch {
    const batch = this.#queues.get(tenant.organizationId)?.open;
    if (!batch) throw new Error(`${tenant.key}: a claim asked for outside its organization's lock`);
    return batch;
  }

  #queue(org: string): Queue {
    let queue = this.#queues.get(org);
    if (!queue) {
      queue = { open: undefined, opening: false, waiting: [] };
      this.#queues.set(org, queue);
    }
    return queue;
  }

  #enter(org: string, returning: boolean): Promise<void> | undefined {
    const queue = this.#queue(org);
    const open = queue.open;
    if (open?.accepting && open.active > 0 && open.participants < MAX_BATCH) {
      open.active++;
      open.participants++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      queue.waiting.push({ resolve, reject, returning });
      this.#pump(org, queue);
    });
  }

  #leave(org: string): Batch {
    const queue = this.#queues.get(org);
    const batch = queue?.open;
    if (!queue || !batch) throw new Error(`${org}: left a batch that is not open`);
    batch.active--;
    if (batch.active === 0) void this.#close(org, queue, batch);
    return batch;
  }

  #pump(org: string, queue: Queue): void {
    if (queue.open || queue.opening || queue.waiting.length === 0) return;
    queue.opening = true;
    const waiters = queue.waiting.splice(0, MAX_BATCH);
    void this.#open(org, queue, waiters);
  }

  async #open(org: string, queue: Queue, waiters: Waiter[]): Promise<void> {
    let session: OrganizationSession;
    try {
      session = await this.host.store.openOrganization(org, this.#copies.since(org));
    } catch (error) {
      this.#refuse(org, queue, waiters, error);
      return;
    }
    // Open before the copy takes the rows: the due work a server-wide advance runs on the way (Copies.adopt) is its.
    const batch = new Batch(session);
    queue.open = batch;
    batch.active = waiters.length;
    batch.participants = waiters.length;
    try {
      this.#copies.adopt(org, session);
    } catch (error) {
      // The copy could not take the rows (damage named by the store): nothing runs, the copy is read whole next time.
      this.#copies.forget(org);
      batch.accepting = false;
      queue.open = undefined;
      await session.close().catch(() => undefined);
      this.#refuse(org, queue, waiters, error);
      return;
    }
    queue.opening = false;
    for (const waiter of waiters) waiter.resolve();
  }

  /**
   * A batch that could not open: its waiters are refused. Those on their way back from outside the lock are seated in a
   * failed batch, which closes (keeping nothing) once each has unwound; no batch opens before.
   */
  #refuse(org: string, queue: Queue, waiters: Waiter[], error: unknown): void {
    const failure = StateUnavailable.of(error, this.host.store.where);
    queue.opening = false;
    const returning = waiters.filter((waiter) => waiter.returning).length;
    if (returning > 0) {
      const failed = new Batch(undefined, failure);
      failed.active = returning;
      failed.participants = returning;
      queue.open = failed;
    }
    for (const waiter of waiters) waiter.reject(failure);
    this.#pump(org, queue);
  }

  async #close(org: string, queue: Queue, batch: Batch): Promise<void> {
    batch.accepting = false;
    const changes = this.#copies.commitOf(tenantsOf(this.host.directory(), org), batch);
    const { session } = batch;
    try {
      if (!session) {
        // A failed batch: what its participants changed while unwinding is dropped with the copy.
        this.#copies.forget(org);
        batch.settle(batch.failure);
      } else if (changes.lines.length === 0 && changes.claimsTaken.length === 0 && changes.claimsDropped.length === 0) {
        // Nothing to keep: the answers leave now; the lock is let go once the transaction ends.
        batch.settle();
        await session.close().catch(() => undefined);
      } else {
        this.#copies.committed(org, await session.commit(changes));
        batch.settle();
      }
    } catch (error) {
      // Nothing of the batch was kept: the copy is read whole again before anything else runs on it.
      this.#copies.forget(org);
      batch.settle(StateUnavailable.of(error, this.host.store.where));
    } finally {
      queue.open = undefined;
      this.#pump(org, queue);
    }
  }
}
